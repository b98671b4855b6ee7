import { validityMatrix } from '../../helpers/validity.js';

validityMatrix('airline');
