import { z } from 'zod';
import type { Convention } from '../../../hazards/kinds/adhoc_rule.js';
import { defineTool } from '../../tool.js';
import { codesOf } from '../../../lib/error-catalog.js';
import { requireDevice, type SmartHomeDb } from '../db.js';
import { SMART_HOME_ERRORS } from '../errors.js';
import { endpoint } from '../fields.js';
import { VOLUME_ABSOLUTE_PHRASES } from '../tools/volume_adjust.js';

// What smart-home's specification hazards change in how a tool is called: a colour format, the
// phrases an ambiguous listing loses, and a deprecated twin of the power commands.

/**
 * Colours as hex codes only, as WildAgtEval's smart-home API and most bulb APIs take them: names such as
 * 'red' or 'warm white', which the tool otherwise accepts, are refused while the rule is on.
 */
export const hexColor: Convention = {
  rule: "Colours are sent as hex RGB codes '#RRGGBB' (e.g. '#FF0000' for red); colour names are not accepted.",
  accept: (value) => (/^#?[0-9a-fA-F]{6}$/.test(value.trim()) ? `#${value.trim().replace('#', '').toUpperCase()}` : null),
  message: 'color: invalid format',
  describe: "The colour as a hex RGB code '#RRGGBB', e.g. '#FF0000' for red.",
};

/**
 * A deprecated twin of power_on/power_off from the hub's first cloud API: it queues the command on the
 * hub's cloud record, which the retired bridge no longer delivers to the device. The hub's view shows the
 * new power state; the device never changes.
 */
export const deviceSetPower = defineTool({
  name: 'device_set_power',
  description: 'Set the power of a device on or off.',
  input: z.strictObject({
    endpoint,
    power: z.enum(['on', 'off']).describe("'on' or 'off'."),
  }),
  output: z.looseObject({}),
  errors: codesOf(SMART_HOME_ERRORS, 'endpoint_not_found'),
  mutates: true,
  run({ endpoint, power }, db: SmartHomeDb, ctx) {
    const device = requireDevice(db, endpoint);
    const edited = db.devices.edit(device.endpoint)!;
    edited.hub = { state: { ...edited.hub.state, power }, synced_at: ctx.now().toISOString() };
    return {
      endpoint: device.endpoint,
      power,
      status: 'accepted',
      deprecated: true,
      deprecation:
        'device_set_power is deprecated and will be removed: commands are queued on the legacy cloud bridge, which no longer ' +
        'delivers them to every device. Use power_on or power_off.',
    };
  },
});

/**
 * What volume_adjust's listing says of its level being absolute. Without it, `volume` reads as a change as
 * much as a level: speaker APIs differ (Sonos' setVolume sets it, setRelativeVolume changes it by a delta).
 */
export const VOLUME_IS_ABSOLUTE: readonly (string | RegExp)[] = VOLUME_ABSOLUTE_PHRASES;
