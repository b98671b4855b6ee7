import type { Domain } from './domain.js';
import { airline } from './airline/index.js';
import { retail } from './retail/index.js';
import { smartHome } from './smart-home/index.js';
import { weather } from './weather/index.js';

/** Every domain the server hosts. Adding one is a folder plus a line here. */
export const domains: readonly Domain[] = [retail, airline, smartHome, weather];
