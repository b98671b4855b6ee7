import { Validator } from '@seriousme/openapi-schema-validator';
import t from 'tap';
import { domains } from '../../../domains/index.js';
import { smartHome } from '../../../domains/smart-home/index.js';
import { SmartHomeDatabase } from '../../../domains/smart-home/schema.js';
import { startServer } from '../../helpers/server.js';
import { smartHomeFixture } from './helpers.js';

/** The catalog's 30 smart-home tools, in listing order, with whether each writes. */
const CATALOG: Record<string, boolean> = {
  get_user_inventory: false,
  get_device_details: false,
  get_device_telemetry: false,
  get_group_devices: false,
  power_on: true,
  power_off: true,
  brightness_adjust: true,
  color_set: true,
  temperature_set: true,
  mode_set: true,
  lock_lock: true,
  lock_unlock: true,
  lock_status: false,
  open_open: true,
  open_close: true,
  open_set_position: true,
  volume_adjust: true,
  channel_change: true,
  search_media: false,
  get_media_details: false,
  play: true,
  pause: true,
  resume: true,
  stop: true,
  next: true,
  create_alarm: true,
  get_alarms: false,
  delete_alarm: true,
  get_notifications: false,
  get_energy_usage: false,
};

interface Listed {
  name: string;
  description: string;
  mutates: boolean;
  input_schema: { properties: Record<string, { description?: string }>; additionalProperties: boolean };
}

t.test('the smart-home domain', async (t) => {
  const server = await startServer(t);

  t.test("its tools are the catalog's, described, and write exactly when the catalog says", async (t) => {
    t.same(
      smartHome.tools.map((tool) => tool.name),
      Object.keys(CATALOG),
      "the tools of domains/smart-home/tools/index.ts, in order, are CATALOG's in this file (a new tool: its line there, with whether it writes)",
    );
    const reply = await server.request('GET', '/smart-home/tools');
    t.equal(reply.status, 200);
    const listing = reply.body.tools as Listed[];
    t.equal(listing.length, smartHome.tools.length);
    for (const tool of listing) {
      t.equal(tool.mutates, CATALOG[tool.name], `${tool.name} ${CATALOG[tool.name] ? 'writes' : 'only reads'}`);
      t.ok(tool.description.length > 60, `${tool.name} explains itself`);
      t.equal(tool.input_schema.additionalProperties, false, `${tool.name}: unknown arguments are refused`);
      for (const [field, schema] of Object.entries(tool.input_schema.properties)) t.type(schema.description, 'string', `${tool.name}.${field} is described`);
    }
    const multi = listing.filter((tool) => 'endpoints' in tool.input_schema.properties).map((tool) => tool.name);
    t.ok(multi.length >= 18, `device commands take a list of endpoints (${multi.length} tools)`);
  });

  t.test('the combined view lists every tool of every domain under unique names', async (t) => {
    const combined = (await server.request('GET', '/tools')).body.tools as Listed[];
    const names = combined.map((tool) => tool.name);
    const distinct = new Set(domains.flatMap((domain) => domain.tools)).size;
    t.equal(names.length, distinct, `every tool, a shared utility once (${distinct})`);
    t.equal(new Set(names).size, distinct, 'unique names');
    t.ok(domains.includes(smartHome), 'smart-home is a registered domain');
    for (const name of Object.keys(CATALOG)) t.ok(names.includes(name), `${name} keeps its name in the combined view`);
    const listed = (await server.request('GET', '/domains')).body;
    t.match(JSON.stringify(listed), /smart-home/);
  });

  t.test('its OpenAPI document is valid and has one operation per tool', async (t) => {
    const document = (await server.request('GET', '/smart-home/openapi.json')).body;
    const result = await new Validator().validate(document);
    t.ok(result.valid, 'valid OpenAPI', { errors: result.errors });
    t.equal(Object.keys(document.paths).filter((path) => path.startsWith('/smart-home/tools/')).length, smartHome.tools.length);
  });

  t.test('its policy identifies the person, confirms unlocking, keeps to one home and names the authoritative source', async (t) => {
    const reply = await server.request('GET', '/smart-home/policy');
    t.equal(reply.status, 200);
    for (const phrase of ['get_user_inventory', 'explicit "yes"', 'lock_unlock', "person's home", 'authoritative', 'get_device_telemetry', 'last_synced_at']) {
      t.ok(reply.text.includes(phrase), `mentions ${phrase}`);
    }
  });

  t.test('the fixture is a valid smart-home database, loaded as it is', async (t) => {
    t.ok(SmartHomeDatabase.safeParse(smartHomeFixture()).success);
    const file = { homes: {}, users: {}, devices: {}, media: {}, alarms: {}, notifications: {} };
    t.equal(smartHome.complete(file), file, 'a file needs nothing derived');
  });

  t.test('settings name the domain as environment variables spell it (SMART_HOME) or as it is named', async (t) => {
    const { hazardsFromEnvironment } = await import('../../../hazards/setup.js');
    const configured = hazardsFromEnvironment({ HAZARD__OUTAGE__SMART_HOME__GET_DEVICE_TELEMETRY: 'on' }, domains, async () => {});
    t.ok(configured, 'accepted');
    t.throws(() => hazardsFromEnvironment({ HAZARD__OUTAGE__SMART_HOME__NO_SUCH_TOOL: 'on' }, domains, async () => {}), 'an unknown tool is refused');
    for (const name of ['smart-home__color_set', 'smart_home__color_set', 'SMART_HOME__COLOR_SET']) {
      const reply = await server.request('POST', '/sessions', { hazards: { tools: { [name]: { adhoc_rule: 1 } } } });
      t.equal(reply.status, 201, `${name} names a tool`);
    }
    const wrong = await server.request('POST', '/sessions', { hazards: { tools: { 'smart-homes__color_set': { adhoc_rule: 1 } } } });
    t.equal(wrong.status, 400, 'another domain name is refused');
  });
});
