import type { AnyTaskTemplate } from '../../task.js';
import t001 from './001.js';
import t002 from './002.js';
import t003 from './003.js';
import t004 from './004.js';
import t005 from './005.js';
import t006 from './006.js';
import t007 from './007.js';
import t008 from './008.js';
import t009 from './009.js';
import t010 from './010.js';
import t011 from './011.js';
import t012 from './012.js';
import t013 from './013.js';
import t014 from './014.js';
import t015 from './015.js';
import t016 from './016.js';
import t017 from './017.js';
import t018 from './018.js';
import t019 from './019.js';
import t020 from './020.js';
import t021 from './021.js';
import t022 from './022.js';
import t023 from './023.js';
import t024 from './024.js';
import t025 from './025.js';
import t026 from './026.js';
import t027 from './027.js';
import t028 from './028.js';
import t029 from './029.js';
import t030 from './030.js';
import t031 from './031.js';
import t032 from './032.js';

/** Retail's task templates, in order. */
export const retailTasks: readonly AnyTaskTemplate[] = [
  t001,
  t002,
  t003,
  t004,
  t005,
  t006,
  t007,
  t008,
  t009,
  t010,
  t011,
  t012,
  t013,
  t014,
  t015,
  t016,
  t017,
  t018,
  t019,
  t020,
  t021,
  t022,
  t023,
  t024,
  t025,
  t026,
  t027,
  t028,
  t029,
  t030,
  t031,
  t032,
];
