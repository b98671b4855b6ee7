import { answer, callTool, type Script } from '../shared/script.js';

export interface DimTask {
  /** A dimmable light that is off. */
  endpoint: string;
  brightness: number;
}

/**
 * A short smart-home conversation: dim a light that is off, read the refusal, turn it on, dim it.
 */
export function dimLightScript({ endpoint, brightness }: DimTask): Script {
  return (seen) => {
    const last = seen.at(-1)?.output;
    switch (seen.length) {
      case 0:
        return callTool('brightness_adjust', { endpoints: [endpoint], brightness });
      case 1:
        // Only the refusal says the light is off: without it, the stand-in gives up.
        return last?.includes('device_off') ? callTool('power_on', { endpoints: [endpoint] }) : answer(`I could not dim ${endpoint}: ${last}`);
      case 2:
        return callTool('brightness_adjust', { endpoints: [endpoint], brightness });
      default:
        return answer(`${endpoint} is on at ${brightness}%.`);
    }
  };
}

export const dimLightPrompt = ({ endpoint, brightness }: DimTask) => `Set ${endpoint} to ${brightness}% brightness.`;
