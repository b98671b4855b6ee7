import { validityMatrix } from '../../helpers/validity.js';

await validityMatrix('retail');
