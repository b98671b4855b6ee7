import { adversaries } from '../../helpers/validity.js';

adversaries('smart-home');
