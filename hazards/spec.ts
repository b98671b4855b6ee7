import { z } from 'zod';

/** on, off, or a probability; booleans too (for ENABLE__ aliases and JSON files). */
export const Setting = z
  .union([z.enum(['on', 'off']), z.boolean(), z.number().min(0).max(1)])
  .describe('"on" (at the rate), "off", true/false, or a probability from 0 to 1.');
export type Setting = z.infer<typeof Setting>;

/**
 * Hazard settings as JSON: the config file (HAZARD_CONFIG), the runtime (PUT /admin/hazards)
 * and a session's options (POST /sessions {"hazards": …}) all take this shape.
 * Within one spec, `enable` < `kinds` < `tools`.
 */
export const HazardSpec = z
  .strictObject({
    enable: z
      .array(z.string())
      .optional()
      .describe(
        'Kinds or groups to switch on at `rate` on the tools they are assigned to: all, none, failures, drift, sponsored, conflict, adhoc, a family, or ' +
          'kind names.',
      ),
    rate: z.number().min(0).max(1).optional().describe('Probability that an eligible call is hit, for `enable` and "on" (default 1).'),
    kinds: z.record(z.string(), Setting).optional().describe('Per kind, on its assigned tools: {"transient_failure": 0.3}.'),
    tools: z
      .record(z.string(), z.record(z.string(), Setting))
      .optional()
      .describe('Per tool and kind: {"track_order": {"feature_limit": "on"}}. A tool name, or domain__tool.'),
    hints: z.boolean().optional().describe('Add a diagnostic hint to what the agent sees; the schedule is unchanged.'),
    max_consecutive: z.number().int().min(1).max(100).optional().describe('Most retryable faults in a row on one tool (default 2).'),
    latency_ms: z.number().int().min(0).max(120_000).optional().describe('Delay of the latency hazard, in milliseconds (default 1500).'),
  })
  .describe('Hazard settings.');
export type HazardSpec = z.infer<typeof HazardSpec>;
