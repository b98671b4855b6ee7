import { readFileSync, statSync } from 'node:fs';
import type { Domain } from '../../domains/domain.js';
import { Assignment } from '../../hazards/assignment.js';
import { hazardKinds } from '../../hazards/kinds/index.js';
import { GENERIC_KINDS } from '../../lib/hazard-profiles.js';
import { tau2IdOf } from '../../lib/tau2-task.js';
import { type Tau2Conversion, convertTau2Tasks } from '../../scoring/tau2.js';
import type { Target, TaskSpec } from '../../scoring/task.js';
import { ConfigError, tasksVariable } from '../config.js';

/** The largest tasks.json read, and the most tasks in it. */
export const MAX_TASK_FILE_BYTES = 64 * 1024 * 1024;
export const MAX_TAU2_TASKS = 10_000;

/** What importing a domain's tau2-bench tasks gave: the file, the tasks loaded, those skipped and why, the assertions not scored. */
export interface Tau2Import {
  domain: string;
  file: string;
  loaded: number;
  skipped: { id: string; why: string }[];
  nl_assertions: number;
}

/** The scenarios a domain's tools can suffer, as the hazard engine assigns them: declared, or the generic scenario of kinds that strike any tool. */
export function domainScenarios(domain: Domain): Target[] {
  const assignment = new Assignment([domain], new Map(hazardKinds.map((kind) => [kind.kind, kind])));
  return hazardKinds.flatMap((kind) =>
    domain.tools.flatMap((tool) => {
      const scenario = assignment.scenario({ domain: domain.name, tool: tool.name }, kind.kind);
      return scenario ? [{ kind: kind.kind as string, tool: tool.name, recovery: (scenario as { recovery?: string }).recovery ?? kind.recovery }] : [];
    }),
  );
}

/** The entries of a tasks.json: a JSON array of at most MAX_TAU2_TASKS; a ConfigError naming the variable otherwise. */
function readEntries(variable: string, path: string): unknown[] {
  const fail = (what: string) => new ConfigError(`Invalid ${variable}=${JSON.stringify(path)}: ${what}`);
  let text: string;
  try {
    const { size } = statSync(path);
    if (size > MAX_TASK_FILE_BYTES) throw fail(`the file has ${size} bytes, more than ${MAX_TASK_FILE_BYTES}`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw fail(`cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch (error) {
    throw fail(`not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(entries)) throw fail("expected tau2-bench's tasks.json: a JSON array of tasks");
  if (entries.length > MAX_TAU2_TASKS) throw fail(`${entries.length} tasks, more than ${MAX_TAU2_TASKS}`);
  return entries;
}

/**
 * A domain's tasks from a tau2-bench tasks.json, converted; a task whose gold writes fail the tools'
 * input schemas, or fail on the domain's database (`check`), is skipped with why.
 */
export function importTau2Tasks(domain: Domain, path: string, check: (task: TaskSpec) => string | undefined): { tasks: TaskSpec[]; report: Tau2Import } {
  const variable = tasksVariable(domain.name);
  const entries = readEntries(variable, path);
  const conversion: Tau2Conversion = convertTau2Tasks(entries, {
    domain: domain.name,
    tools: new Set(domain.tools.map((tool) => tool.name)),
    writes: new Set(domain.tools.filter((tool) => tool.mutates).map((tool) => tool.name)),
    scenarios: domainScenarios(domain),
    kinds: GENERIC_KINDS,
  });
  const skipped = [...conversion.skipped];
  const tasks = conversion.tasks.filter((task) => {
    const why = invalidWrite(domain, task) ?? check(task);
    if (why) skipped.push({ id: tau2IdOf(task.id), why });
    return why === undefined;
  });
  const nl = tasks.reduce((sum, task) => sum + (conversion.nl_assertions.get(task.id) ?? 0), 0);
  return { tasks, report: { domain: domain.name, file: path, loaded: tasks.length, skipped, nl_assertions: nl } };
}

/** Why a task's gold writes do not fit the tools' input schemas, or undefined. */
function invalidWrite(domain: Domain, task: TaskSpec): string | undefined {
  for (const write of task.expect.writes) {
    const tool = domain.tools.find((candidate) => candidate.name === write.tool)!;
    const parsed = tool.input.safeParse(write.args);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      return `gold write ${write.tool} has invalid arguments: ${issue.path.join('.') || 'the arguments'}: ${issue.message}`;
    }
  }
  return undefined;
}
