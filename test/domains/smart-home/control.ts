import type { Test } from 'tap';
import type { RecordDiff } from '../../../server/core/data/domain-state.js';
import { drawOf, logged } from '../../../domains/smart-home/energy.js';
import type { Device, DeviceState } from '../../../domains/smart-home/schema.js';
import type { TestServer } from '../../helpers/server.js';
import { findDevice, smartHomeFixture } from './helpers.js';

// What the tests of the device commands share: devices found in the fixture by what a test needs, sessions on a
// still clock, and the checks every command answers to: per-endpoint results, exactly the devices that took the
// command changed (their state, the hub's view, the draw history), refusals with their status, code and detail
// that change nothing.

/** The time of every call in a `still` session: the default session start. */
export const NOW = '2024-05-15T20:00:00.000Z';

const devices = (): Device[] => Object.values(smartHomeFixture().devices);

/** The first `count` devices of the fixture that pass `test`; throws naming `what` when there are fewer. */
export function findDevices(test: (device: Device) => boolean, count: number, what: string): Device[] {
  const found = devices().filter(test).slice(0, count);
  if (found.length < count) throw new Error(`fewer than ${count} ${what} in the smart-home fixture`);
  return found;
}

/** Online devices of a type, on or off, for the commands that need them one way or the other. */
export const online = (type: Device['type'], power?: 'on' | 'off') => (d: Device) => d.online && d.type === type && (!power || d.state.power === power);

/**
 * An offline device of one of the types, else any offline device: an offline device fails before the command
 * looks at its type, so any one shows the rule when the fixture has none of the type.
 */
export const findOffline = (types: readonly Device['type'][]): Device =>
  devices().find((d) => !d.online && types.includes(d.type)) ?? findDevice((d) => !d.online, 'offline device');

/** A new session whose clock stays at NOW. */
export const still = (server: TestServer) => server.newSession({ clock: { start: NOW, step_ms: 0 } });

export const diffOf = async (server: TestServer, session: string): Promise<RecordDiff[]> =>
  (await server.request('GET', `/sessions/${session}/diff`)).body['smart-home'];

/** A device as a command that took it leaves it: the patch on its state, the hub's view synced, seen now, the new draw logged. */
export function commanded(device: Device, patch: Partial<DeviceState>): Device {
  const state = { ...device.state, ...patch };
  return { ...device, state, hub: { state, synced_at: NOW }, last_seen_at: NOW, power_log: logged(device.power_log, NOW, drawOf(device, state)) };
}

type Asserts = Pick<Test, 'equal' | 'same' | 'match'>;

/** What one endpoint of a command is expected to do: take a patch (`{}`: ok, state as it was) or fail with a code and message. */
export type Expected = { device: Device; patch: Partial<DeviceState> } | { device: Device; code: string; error: string };

/**
 * Calls a device command in a new session over the expected devices' endpoints, in order: 200, one result per
 * endpoint, and exactly the devices that took it changed, as `commanded` says. Returns the session.
 */
export async function expectCommand(
  t: Asserts,
  server: TestServer,
  tool: string,
  args: Record<string, unknown>,
  expected: readonly Expected[],
): Promise<string> {
  const session = await still(server);
  const reply = await server.call('smart-home', tool, { ...args, endpoints: expected.map(({ device }) => device.endpoint) }, session);
  t.equal(reply.status, 200, `${tool}: 200`);
  const results = expected.map((e) => {
    const base = { endpoint: e.device.endpoint, name: e.device.name };
    return 'patch' in e ? { ...base, status: 'ok', state: commanded(e.device, e.patch).state } : { ...base, status: 'failed', code: e.code, error: e.error };
  });
  const ok = expected.filter((e) => 'patch' in e);
  t.same(reply.body, { results, succeeded: ok.length, failed: expected.length - ok.length }, `${tool}: results per endpoint`);
  const diff = await diffOf(server, session);
  t.same(diff.map((d) => d.id).sort(), ok.map(({ device }) => device.endpoint).sort(), `${tool}: exactly the devices that took it changed`);
  for (const e of ok) t.same(diff.find((d) => d.id === e.device.endpoint)?.after, commanded(e.device, e.patch), `${tool}: ${e.device.endpoint} as commanded`);
  return session;
}

export interface Refusal {
  args: Record<string, unknown>;
  status: number;
  code: string;
  detail: string;
  /** With several endpoints: each device's code and message. */
  errors?: { endpoint: string; code: string; error: string }[];
  why?: string;
}

/** Each call is refused as a whole with its status, code and exact detail; none of them changed anything. */
export async function expectRefused(t: Asserts, server: TestServer, tool: string, cases: readonly Refusal[]): Promise<void> {
  const session = await still(server);
  for (const { args, status, code, detail, errors, why = `${tool}: ${code}` } of cases) {
    const reply = await server.call('smart-home', tool, args, session);
    t.equal(reply.status, status, why);
    t.match(reply.body, { code, detail }, why);
    t.equal(reply.body?.detail, detail, why);
    if (errors) t.same(reply.body.errors, errors, `${why}: errors per endpoint`);
  }
  t.same(await diffOf(server, session), [], `${tool}: the refused calls changed nothing`);
}

/** Calls with arguments the schema refuses: 400 each, nothing changed. */
export async function expectInvalid(t: Asserts, server: TestServer, tool: string, argsList: readonly Record<string, unknown>[]): Promise<void> {
  const session = await still(server);
  for (const args of argsList) t.equal((await server.call('smart-home', tool, args, session)).status, 400, `${tool} ${JSON.stringify(args)}: 400`);
  t.same(await diffOf(server, session), [], `${tool}: invalid calls changed nothing`);
}

/** How db.ts and commands.ts word the refusals every command shares. */
export const messages = {
  offline: (d: Device) => `${d.name} (${d.endpoint}) is offline (last seen ${d.last_seen_at}): the command cannot reach it.`,
  off: (d: Device, doing: string) => `${d.name} (${d.endpoint}) is off: turn it on with power_on before ${doing}.`,
  unsupported: (d: Device, what: string) => `${d.name} (${d.endpoint}) is a ${d.type.replace('_', ' ')} and does not support ${what}.`,
  unknown: (endpoint: string) => `Unknown endpoint '${endpoint}'. Use get_user_inventory to list a home's endpoints.`,
};

/** An endpoint id no device has, nor resembles. */
export const NO_DEVICE = 'Zzzz_0';

/**
 * What runCommand makes every command do, checked for one tool: an unknown endpoint among good ones refuses the
 * whole call (404); an offline device alone is refused (409 device_offline, with last_seen_at); beside a device that
 * takes the command, the offline one fails and only the other changes.
 */
export async function expectCommandRules(
  t: Asserts,
  server: TestServer,
  tool: string,
  args: Record<string, unknown>,
  { good, patch, offline }: { good: Device; patch: Partial<DeviceState>; offline: Device },
): Promise<void> {
  await expectRefused(t, server, tool, [
    { args: { ...args, endpoints: [good.endpoint, NO_DEVICE] }, status: 404, code: 'endpoint_not_found', detail: messages.unknown(NO_DEVICE) },
    { args: { ...args, endpoints: [offline.endpoint] }, status: 409, code: 'device_offline', detail: messages.offline(offline) },
  ]);
  const session = await still(server);
  const reply = await server.call('smart-home', tool, { ...args, endpoints: [offline.endpoint] }, session);
  t.equal(reply.body.last_seen_at, offline.last_seen_at, `${tool}: an offline device's refusal says when it was last seen`);
  await expectCommand(t, server, tool, args, [
    { device: good, patch },
    { device: offline, code: 'device_offline', error: messages.offline(offline) },
  ]);
}
