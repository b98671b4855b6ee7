import { adversaries } from '../../helpers/validity.js';

adversaries('airline');
