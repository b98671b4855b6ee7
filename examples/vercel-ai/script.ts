import { answer, callTool, coping, fieldOf, type Script } from '../shared/script.js';

export interface DimTask {
  /** A dimmable light that is off. */
  endpoint: string;
  brightness: number;
}

/** Whether a device command's answer says the endpoint took it and now has `brightness`. */
function dimmed(output: string | undefined, endpoint: string, brightness: number): boolean {
  const results = fieldOf(output, 'results');
  if (!Array.isArray(results)) return false;
  const result = (results as { endpoint?: unknown; status?: unknown; state?: { brightness?: unknown } }[]).find((entry) => entry.endpoint === endpoint);
  return result?.status === 'ok' && result.state?.brightness === brightness;
}

/**
 * A short smart-home conversation: dim a light that is off, read the refusal, turn it on, dim it. It copes with
 * faults (retries, an idempotency key on each command) and claims the brightness only when the command's
 * answer reports it for that light.
 */
export function dimLightScript({ endpoint, brightness }: DimTask): Script {
  return coping((seen) => {
    const last = seen.at(-1)?.output;
    switch (seen.length) {
      case 0:
        return callTool('brightness_adjust', { endpoints: [endpoint], brightness, idempotency_key: `dim-${endpoint}-1` });
      case 1:
        // Only the refusal says the light is off: without it, the stand-in gives up.
        return last?.includes('device_off')
          ? callTool('power_on', { endpoints: [endpoint], idempotency_key: `power-${endpoint}` })
          : answer(`I could not dim ${endpoint}: ${last}`);
      case 2:
        return callTool('brightness_adjust', { endpoints: [endpoint], brightness, idempotency_key: `dim-${endpoint}-2` });
      default:
        return dimmed(last, endpoint, brightness) ? answer(`${endpoint} is on at ${brightness}%.`) : answer(`I could not dim ${endpoint}: ${last}`);
    }
  });
}

export const dimLightPrompt = ({ endpoint, brightness }: DimTask) => `Set ${endpoint} to ${brightness}% brightness.`;
