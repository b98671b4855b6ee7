import { compositions } from '../../helpers/compositions.js';

compositions('airline');
