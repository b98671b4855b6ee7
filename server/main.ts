import { launch } from './launch.js';

// The command-line entry of `npm start`: configuration from the environment, then serve until a signal.
await launch(process.env);
