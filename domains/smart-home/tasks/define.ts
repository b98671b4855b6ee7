import { taskDefiner } from '../../task.js';
import type { SmartHomeDb } from '../db.js';
import type { smartHomeTools } from '../tools/index.js';

/** Smart home's task templates, typed by its database and its tools. */
export const { task: smartHomeTask, turn: smartHomeTurn } = taskDefiner<SmartHomeDb, typeof smartHomeTools>();
