import type { Domain } from '../../../domains/domain.js';
import type { AnyTool, CompatMode } from '../../../domains/tool.js';
import type { ExpectedWrite } from '../../../scoring/task.js';
import type { DomainState } from '../data/domain-state.js';
import type { SessionClock } from '../sessions/clock.js';

/** The tools of a domain as a reference run calls them, by name. */
export type ReferenceTools = Readonly<Record<string, (args: Record<string, unknown>) => unknown>>;

/**
 * A domain's tools run at once on a database of their own, without hazards, on a clock of their own: how a
 * task's reference solution (or a task's gold writes) is run. Each call ticks the clock as a session call
 * would; a write that changed something is recorded in `writes`. Arguments a tool refuses are a bug of the
 * task, thrown as zod's error; a broken rule throws the tool's ToolError.
 */
export function referenceTools(domain: Domain, state: DomainState, clock: SessionClock, compat: CompatMode, writes: ExpectedWrite[]): ReferenceTools {
  const call = (tool: AnyTool, args: Record<string, unknown>) => {
    const at = clock.tick();
    const parsed = tool.input.parse(args);
    const ctx = { session: 'reference', now: () => new Date(at), compat };
    if (!tool.mutates) return state.read((tables) => tool.run(parsed, tables, ctx));
    const { result, changes } = state.transact((tables) => tool.run(parsed, tables, ctx));
    if (changes.length > 0) writes.push({ tool: tool.name, args });
    return result;
  };
  return Object.fromEntries(domain.tools.map((tool) => [tool.name, (args: Record<string, unknown>) => call(tool, args)]));
}
