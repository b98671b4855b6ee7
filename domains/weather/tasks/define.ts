import { taskDefiner } from '../../task.js';
import type { WeatherDb } from '../db.js';
import type { weatherTools } from '../tools/index.js';

/** Weather's task templates, typed by its database and its tools. */
export const { task: weatherTask, turn: weatherTurn } = taskDefiner<WeatherDb, typeof weatherTools>();
