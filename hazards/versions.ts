import type { HazardCall, ScenarioBase } from './kind.js';

// Drift is announced as versioned APIs announce it: every answer names the API version that produced
// it (as Stripe-Version or X-GitHub-Api-Version do), and the version moves when the contract changes.

export const API_VERSION_HEADER = 'api-version';
/** The version of the documented contract, which every answer of a tool that has not drifted names. */
export const DOCUMENTED_VERSION = '2024-05-01';
/** The version a drifted tool answers with (the documented contract is DOCUMENTED_VERSION). */
export const DRIFTED_VERSION = '2024-06-01';

/** Marks an answer of a drifted tool with the new version. */
export const announceDrift = (call: HazardCall<ScenarioBase>) => call.header(API_VERSION_HEADER, DRIFTED_VERSION);

/** The version sentence a drifted contract's description ends with, as changelogs word it. */
export const driftNote = (change: string) => `Changed in API version ${DRIFTED_VERSION}: ${change}.`;
