import { taskDefiner } from '../../task.js';
import type { commonTools } from '../../common/index.js';
import type { RetailDb } from '../db.js';
import type { retailTools } from '../tools/index.js';

/** Retail's task templates, typed by its database and its tools. */
export const { task: retailTask, turn: retailTurn } = taskDefiner<RetailDb, readonly [...typeof retailTools, ...typeof commonTools]>();
