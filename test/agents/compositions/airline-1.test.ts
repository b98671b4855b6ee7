import { compositions } from '../../helpers/compositions.js';

// Airline's pairs run as two files: its tasks are the longest.
compositions('airline', { index: 0, of: 2 });
