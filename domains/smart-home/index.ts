import { assetUrl } from '../../lib/assets.js';
import { generateSmartHome } from '../../fixtures/generator/smart-home.js';
import type { DatabaseFile, Domain } from '../domain.js';
import { smartHomeHazards } from './hazards/index.js';
import { SmartHomeDatabase } from './schema.js';
import { smartHomeTools } from './tools/index.js';
import { smartHomeTasks } from './tasks/index.js';
import { SMART_HOME_ERRORS } from './errors.js';

export const smartHome: Domain = {
  name: 'smart-home',
  title: 'Smart home',
  summary:
    'Homes with rooms, groups and members, and their devices by endpoint: lights, dimmers, colour bulbs, thermostats, ' +
    'locks, blinds, garage doors, speakers, TVs and plugs, with real dependencies (a device must be on to be dimmed or ' +
    "played on; a lock opens for its authorized users; a garage door will not close on an obstruction). The hub's " +
    "cached view and each device's own telemetry, media playback from a catalog, alarms, notifications and energy use.",
  database: SmartHomeDatabase as unknown as Domain['database'],
  complete: (file: DatabaseFile) => file,
  tools: [...smartHomeTools],
  errors: SMART_HOME_ERRORS,
  policyFile: assetUrl('domains/smart-home/policy.md'),
  fixtureFile: assetUrl('fixtures/smart-home.json'),
  world: (seed: number) => generateSmartHome(`instance:${seed}`, { scale: 1 }) as unknown as DatabaseFile,
  tasks: async () => smartHomeTasks,
  hazards: smartHomeHazards,
};
