import type { z } from 'zod';
import type { Scenario } from '../hazards/kind.js';
import type { AnyTaskTemplate } from './task.js';
import type { ToolErrorEntry } from './errors.js';
import type { AnyTool } from './tool.js';

/** A database file: one object per table, records keyed by id (tau2-bench's layout). */
export type DatabaseFile = Record<string, Record<string, unknown>>;

/**
 * A domain: its database model, its tools and its policy. The server serves each domain
 * as its own API under `/{name}/`; nothing in the server names a domain.
 */
export interface Domain {
  /** Path segment and listing name, e.g. `retail`. */
  readonly name: string;
  readonly title: string;
  /** One paragraph for listings and the OpenAPI document. */
  readonly summary: string;
  /** Validates a database file (the default fixture, or a user's tau2-bench `db.json`). */
  readonly database: z.ZodType<DatabaseFile>;
  /**
   * Fills what a foreign file (e.g. tau2-bench's) lacks for this domain's extra tools,
   * deterministically from the file's own content. Returns a complete file.
   */
  complete(file: DatabaseFile): DatabaseFile;
  readonly tools: readonly AnyTool[];
  /** Its error catalog (`<domain>/errors.ts`): every code its own tools refuse with; the shared utilities have theirs. */
  readonly errors?: Readonly<Record<string, ToolErrorEntry>>;
  /** Markdown rules an agent must follow, served at `/{name}/policy`. */
  readonly policyFile: URL;
  /** The generated default database. */
  readonly fixtureFile: URL;
  /** The domain's task templates (domains/<name>/tasks/), loaded on first use: importing them is a part of a cold start no server needs. */
  readonly tasks?: () => Promise<readonly AnyTaskTemplate[]>;
  /**
   * The database of a task instance's seed (seed 0 is the default fixture): generated like it, smaller, so that a
   * new instance costs little. Generated on first use, synchronously: a session restored from disk rebuilds its
   * instance inside a synchronous lookup.
   */
  readonly world?: (seed: number) => DatabaseFile;
  /** This domain's hazard scenarios: which tool suffers which kind, and how (see hazards/). */
  readonly hazards?: readonly Scenario<unknown, string, AnyTool>[];
}
