import type { Command } from '../command.js';
import { fixtures } from './fixtures.js';
import { hazards } from './hazards.js';
import { journal } from './journal.js';
import { mcp } from './mcp.js';
import { mockCheck } from './mock-check.js';
import { serve } from './serve.js';

/** The subcommands, in the order the help lists them. A new one is a file here and a line below. */
export const commands: readonly Command[] = [serve, mcp, fixtures, hazards, journal, mockCheck];
