import { compositions } from '../../helpers/compositions.js';

compositions('smart-home');
