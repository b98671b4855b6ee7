import type { Test } from 'tap';
import type { Device, Playback } from '../../../domains/smart-home/schema.js';
import type { TestServer } from '../../helpers/server.js';
import { commanded, diffOf, type Expected, still } from './control.js';
import { findDevice, smartHomeFixture } from './helpers.js';

// What the tests of the playback tools (play, pause, resume, stop, next) share: players found by what their
// playback holds, and the check of a playback command: per-endpoint results, what each device that took it now
// plays (now_playing), and exactly those devices changed.

type Asserts = Pick<Test, 'equal' | 'same'>;

const PLAYERS: readonly Device['type'][] = ['speaker', 'tv'];

/** An online player that is on, whose playback passes `test` (null: nothing loaded). */
export const player = (what: string, test: (playback: Playback | null, device: Device) => boolean, types = PLAYERS) =>
  findDevice((d) => d.online && d.state.power === 'on' && types.includes(d.type) && test(d.state.playback ?? null, d), what);

/** A player whose playback has this status, with an item after the current one (or at the last item). */
export const withStatus = (status: Playback['status'], where: 'before_last' | 'last' | 'any' = 'any') =>
  player(`player ${status} (${where})`, (p) => p?.status === status && (where === 'any' || (where === 'last') === (p.index === p.queue.length - 1)));

/** What a playback tool says a device holds after it took the command. */
function nowPlaying(device: Device, playback: Playback) {
  const id = playback.queue[playback.index]!;
  const item = smartHomeFixture().media[id]!;
  return {
    endpoint: device.endpoint,
    status: playback.status,
    media_id: id,
    title: item.title,
    artist: item.artist,
    queue_position: playback.index + 1,
    queue_length: playback.queue.length,
  };
}

/** Calls a playback tool in a new still session over the expected devices: 200, results per endpoint, now_playing, exactly the devices that took it changed. */
export async function expectPlayback(t: Asserts, server: TestServer, tool: string, args: Record<string, unknown>, expected: readonly Expected[]) {
  const session = await still(server);
  const reply = await server.call('smart-home', tool, { ...args, endpoints: expected.map(({ device }) => device.endpoint) }, session);
  t.equal(reply.status, 200, `${tool}: 200`);
  const ok = expected.flatMap((e) => ('patch' in e ? [{ device: e.device, after: commanded(e.device, e.patch) }] : []));
  const results = expected.map((e) => {
    const base = { endpoint: e.device.endpoint, name: e.device.name };
    return 'patch' in e ? { ...base, status: 'ok', state: commanded(e.device, e.patch).state } : { ...base, status: 'failed', code: e.code, error: e.error };
  });
  const now_playing = ok.flatMap(({ device, after }) => (after.state.playback ? [nowPlaying(device, after.state.playback)] : []));
  t.same(reply.body, { results, succeeded: ok.length, failed: expected.length - ok.length, now_playing }, `${tool}: results per endpoint`);
  const diff = await diffOf(server, session);
  t.same(diff.map((d) => d.id).sort(), ok.map(({ device }) => device.endpoint).sort(), `${tool}: exactly the devices that took it changed`);
  for (const { device, after } of ok) t.same(diff.find((d) => d.id === device.endpoint)?.after, after, `${tool}: ${device.endpoint} as commanded`);
  return { session, body: reply.body };
}
