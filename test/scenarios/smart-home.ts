import { setpointLimits } from '../../domains/smart-home/climate.js';
import { COLOR_NAMES } from '../../domains/smart-home/colors.js';
import type { Device } from '../../domains/smart-home/schema.js';
import { smartHomeFixture } from '../domains/smart-home/helpers.js';
import type { Obj, Probe } from './harness.js';
import { careful, listedTool, literal, literalChoice, oneCall, orElse, replacementOf, sameTask } from './scripts.js';
import { homeWith, ownerOf, target } from './smart-home-targets.js';

// Smart-home's probes of its specification, invocation and execution scenarios: one per scenario of
// domains/smart-home/hazards/ (see harness.ts for what each proves). The output, cross-source and
// third-party ones are in smart-home-output.ts.

const firstResult = (answer: Obj) => (answer['results'] as Obj[])[0]!;
const stateOf = (answer: Obj) => firstResult(answer)['state'] as Obj;
const on = (device: Device) => ({ endpoints: [device.endpoint] });

/** "Make the sofa lamp red": a colour bulb that is on and not red. */
const bulb = target('colour bulb on', (d) => d.type === 'color_bulb' && d.state.power === 'on' && d.state.color !== COLOR_NAMES['red']);

/** "Set upstairs to one temperature and downstairs to another": two thermostats of a home that hold a setpoint. */
const thermostats = homeWith('thermostats holding a setpoint', 2, (d) => d.type === 'thermostat' && d.state.mode !== 'off').devices.slice(0, 2);
/** A setpoint within the thermostat's mode's limits, other than its current one. */
function setpointFor(device: Device): number {
  const [low, high] = setpointLimits(device.state.mode as 'heat', device.state.unit!);
  const middle = Math.round((low + high) / 2);
  return middle === device.state.target_temperature ? middle + 1 : middle;
}

/** "Turn the kitchen speaker up by 10." */
const speaker = target('speaker on, at most 80 %', (d) => d.type === 'speaker' && d.state.power === 'on' && d.state.volume! <= 80);
const volumeOf = (telemetry: Obj) => Number((telemetry['state'] as Obj)['volume']);

/** "Turn on the hallway light." */
const darkLight = target('light off', (d) => d.type === 'light' && d.state.power === 'off');

/** "Unlock the front door": a locked lock its home's owner may open. */
const lock = target('locked lock', (d) => d.type === 'lock' && d.state.lock === 'locked' && d.state.door === 'closed');

/** "Play this album on the living-room speaker." */
const player = target('speaker on', (d) => d.type === 'speaker' && d.state.power === 'on');
const album = Object.values(smartHomeFixture().media).find((media) => media.type === 'album')!;
const playAlbum = () => ({ endpoints: [player.endpoint], media_id: album.media_id });
const playing = (answer: Obj) => {
  const playback = stateOf(answer)['playback'] as Obj;
  return { status: playback['status'], media_id: playback['media_id'] };
};

/** "Find songs by this artist": the media ids found, in order. */
const artist = Object.values(smartHomeFixture().media).find((media) => media.type === 'artist')!;
const searchArtist = () => ({ query: artist.title, type: 'song' });
const ids = (answer: Obj) => (answer['results'] as Obj[]).map((item) => item['media_id']);

/** "Set an alarm for 6:45 on Friday, labelled Gym." */
const alarmSpeaker = target('speaker for an alarm', (d) => d.type === 'speaker');
const alarm = () => ({ user_id: ownerOf(alarmSpeaker).user_id, endpoint: alarmSpeaker.endpoint, time: '2024-05-17T06:45:00', label: 'Gym' });
const alarmSet = (answer: Obj) => ({ alarm_id: answer['alarm_id'], time: answer['time'] });

/** "How much energy did my home use in the last 30 days?", to a tenth of a kWh. */
const energyHome = homeWith('metered devices', 3, (d) => d.capabilities.includes('energy')).home;
const tenths = (kwh: number) => Math.round(kwh * 10) / 10;
/** The month in parts of at most `days` days, added up (the dates are the home's; the session clock is known). */
async function monthInParts(c: Parameters<Probe['naive']>[0], days: number): Promise<number> {
  const today = String((await careful(c, 'get_energy_usage', { home_id: energyHome.home_id, period: 'today' }))['end']).slice(0, 10);
  let total = 0;
  for (let back = 29; back >= 0; back -= days) {
    const first = shift(today, -back);
    const last = shift(today, Math.min(0, -back + days - 1));
    total += (await careful(c, 'get_energy_usage', { home_id: energyHome.home_id, start_date: first, end_date: last }))['total_kwh'];
  }
  return tenths(total);
}
const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** "Is the bedroom lamp on?" — an online device whose two sources agree. */
const watched = target('light', (d) => d.type === 'dimmer');

export const smartHomeProbes: Probe[] = [
  // ---- specification
  {
    // The person names the colour; the literal agent passes it on as said.
    ...oneCall(
      'adhoc_rule',
      'color_set',
      () => ({ ...on(bulb), color: 'red' }),
      (answer) => stateOf(answer)['color'],
    ),
    recover: async (c) => {
      const reformat = { color: { says: /#RRGGBB/, fix: (name: string) => COLOR_NAMES[name] ?? name } };
      return stateOf(await careful(c, 'color_set', { ...on(bulb), color: 'red' }, { reformat }))['color'];
    },
  },
  // One thermostat, then the other: the second call is the drifted one.
  sameTask('spec_drift', 'temperature_set', async (c, call) => {
    const set = [];
    for (const device of thermostats)
      set.push(stateOf(await call(c, 'temperature_set', { ...on(device), temperature: setpointFor(device) }))['target_temperature']);
    return set;
  }),
  {
    kind: 'ambiguous_doc',
    tool: 'volume_adjust',
    // "Turn it up by 10." The literal agent reads the level as its documentation says: absolute (read, add 10),
    // or, when it does not say, as the change asked for.
    naive: async (c) => {
      const listed = await listedTool(c, 'volume_adjust');
      const absolute = /absolute/.test(`${listed.description} ${listed.parameters.properties['volume']?.description ?? ''}`);
      const volume = absolute ? volumeOf(await literal(c, 'get_device_telemetry', { endpoint: speaker.endpoint })) + 10 : 10;
      return stateOf(await literal(c, 'volume_adjust', { ...on(speaker), volume }))['volume'];
    },
    recover: async (c) => {
      const now = volumeOf(await careful(c, 'get_device_telemetry', { endpoint: speaker.endpoint }));
      return stateOf(await careful(c, 'volume_adjust', { ...on(speaker), volume: now + 10 }))['volume'];
    },
  },
  {
    kind: 'lookalike',
    tool: 'power_on',
    // "Turn on the hallway light": the literal agent takes the tool whose name says exactly that.
    naive: async (c) => {
      const tool = await literalChoice(c, 'power_on', 'device_set_power');
      if (tool === 'device_set_power') return (await literal(c, tool, { endpoint: darkLight.endpoint, power: 'on' }))['power'];
      return stateOf(await literal(c, tool, on(darkLight)))['power'];
    },
    recover: async (c) => {
      const tool = await literalChoice(c, 'power_on', 'device_set_power');
      const answer =
        tool === 'device_set_power' ? await careful(c, tool, { endpoint: darkLight.endpoint, power: 'on' }) : await careful(c, tool, on(darkLight));
      const maintained = replacementOf(answer);
      return stateOf(maintained ? await careful(c, maintained, on(darkLight)) : answer)['power'];
    },
  },
  // ---- invocation
  oneCall(
    'invocation_error',
    'lock_unlock',
    () => ({ ...on(lock), user_id: ownerOf(lock).user_id }),
    (answer) => stateOf(answer)['lock'],
  ),
  // ---- execution
  oneCall('transient_failure', 'play', playAlbum, playing),
  oneCall('transient_failure', 'search_media', searchArtist, ids),
  {
    // The album the person asked for: the recovering agent repeats play with the key it sent the first time.
    ...oneCall('latency', 'play', playAlbum, playing),
    recover: async (c) => playing(await careful(c, 'play', { ...playAlbum(), idempotency_key: `play-${c.session}` })),
  },
  oneCall('latency', 'search_media', searchArtist, ids),
  oneCall(
    'transport_fault',
    'power_on',
    () => on(darkLight),
    (answer) => stateOf(answer)['power'],
  ),
  oneCall('transport_fault', 'search_media', searchArtist, ids),
  {
    ...oneCall('unknown_outcome', 'create_alarm', alarm, alarmSet),
    recover: async (c) => alarmSet(await careful(c, 'create_alarm', { ...alarm(), idempotency_key: `alarm-${c.session}` })),
  },
  {
    ...oneCall(
      'feature_limit',
      'get_energy_usage',
      () => ({ home_id: energyHome.home_id, period: 'last_30_days' }),
      (answer) => tenths(answer['total_kwh']),
    ),
    recover: (c) =>
      orElse(
        422,
        async () => tenths((await careful(c, 'get_energy_usage', { home_id: energyHome.home_id, period: 'last_30_days' }))['total_kwh']),
        async (problem) => monthInParts(c, Number(/at most (\d+) days/.exec(String(problem['detail']))![1])),
      ),
  },
  {
    // Is the bedroom lamp on, and how bright? The device's own report, else the hub's last known view.
    kind: 'outage',
    tool: 'get_device_telemetry',
    naive: async (c) => (await literal(c, 'get_device_telemetry', { endpoint: watched.endpoint }))['state'],
    recover: (c) =>
      orElse(
        503,
        async () => (await careful(c, 'get_device_telemetry', { endpoint: watched.endpoint }))['state'],
        async () => (await careful(c, 'get_device_details', { endpoint: watched.endpoint }))['state'],
      ),
  },
];
