import { validityMatrix } from '../../helpers/validity.js';

validityMatrix('smart-home');
