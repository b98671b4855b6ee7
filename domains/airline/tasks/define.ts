import { taskDefiner } from '../../task.js';
import type { commonTools } from '../../common/index.js';
import type { AirlineDb } from '../db.js';
import type { airlineExtraTools } from '../tools/extra.js';
import type { airlineTools } from '../tools/index.js';

/** Airline's task templates, typed by its database and its tools. */
export const { task: airlineTask, turn: airlineTurn } = taskDefiner<
  AirlineDb,
  readonly [...typeof airlineTools, ...typeof airlineExtraTools, ...typeof commonTools]
>();
