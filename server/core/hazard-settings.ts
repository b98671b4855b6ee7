import { HazardConfigError } from '../../hazards/config.js';
import { ProblemError, problem } from './problem.js';

/** Runs a settings change; a bad word is a 400 naming it. */
export function configure(change: () => void): void {
  try {
    change();
  } catch (error) {
    if (error instanceof HazardConfigError) throw new ProblemError(problem(400, 'invalid_hazard_settings', error.message));
    throw error;
  }
}
