import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Domain } from '../../domains/domain.js';
import type { CompatMode } from '../../domains/tool.js';
import { loadTasks } from '../../scoring/load.js';
import type { ChangedRecord } from '../../scoring/end-state.js';
import type { PublicTask, TaskSpec } from '../../scoring/task.js';
import { domainOf } from '../../scoring/task.js';
import type { BaseDatabase } from '../data/base.js';
import { DomainState } from '../data/domain-state.js';
import { ClockOptions, SessionClock } from '../sessions/clock.js';
import { importTau2Tasks, type Tau2Import } from './tau2-file.js';

/** The records each domain's state changed, as the scorer compares them. */
export function changedRecords(states: ReadonlyMap<string, DomainState>): ChangedRecord[] {
  return [...states].flatMap(([domain, state]) => state.diff().map(({ table, id, op, after }) => ({ domain, table, id, op, after })));
}

/**
 * Every domain's tasks, loaded at startup from the folder each domain names (or, for a domain given a
 * tau2-bench tasks.json, from that file), with what the scorer needs of them: the public view, and the
 * end state the expected writes give (replayed once, without hazards).
 */
export class TaskBook {
  private loaded: Map<string, TaskSpec> | undefined;
  /** Per domain, in order: its tasks, or how to load them (embedded tasks load on first use: a tenth of a cold start). */
  private readonly sources: (TaskSpec[] | (() => TaskSpec[]))[] = [];
  private readonly domains: ReadonlyMap<string, Domain>;
  private readonly expectedStates = new Map<string, ChangedRecord[]>();
  private readonly policies = new Map<string, string>();
  /** What each imported tasks.json gave, by domain. */
  readonly imports: Tau2Import[] = [];

  /** `taskFiles`: a tau2-bench tasks.json by domain name, whose tasks replace the embedded ones (a bad file is a ConfigError). */
  constructor(
    domains: readonly Domain[],
    readonly bases: ReadonlyMap<string, BaseDatabase>,
    taskFiles: Readonly<Record<string, string>> = {},
  ) {
    this.domains = new Map(domains.map((domain) => [domain.name, domain]));
    for (const domain of domains) {
      const file = Object.hasOwn(taskFiles, domain.name) ? taskFiles[domain.name] : undefined;
      if (file !== undefined) {
        const { tasks, report } = importTau2Tasks(domain, file, (task) => this.replayFails(task));
        this.sources.push(tasks);
        this.imports.push(report);
        continue;
      }
      // Tasks name records of the embedded default data: a domain served from another file has none.
      const folder = domain.tasksFolder;
      if (!folder || bases.get(domain.name)?.source !== fileURLToPath(domain.fixtureFile)) continue;
      const decoys = (domain.hazards ?? []).flatMap((scenario) => ('decoy' in scenario ? [(scenario.decoy as { name: string }).name] : []));
      const tools = new Set([...domain.tools.map((tool) => tool.name), ...decoys]);
      this.sources.push(() => loadTasks(domain.name, folder, tools));
    }
  }

  private get tasks(): Map<string, TaskSpec> {
    this.loaded ??= new Map(this.sources.flatMap((source) => (typeof source === 'function' ? source() : source)).map((task) => [task.id, task]));
    return this.loaded;
  }

  get size(): number {
    return this.tasks.size;
  }

  list(): TaskSpec[] {
    return [...this.tasks.values()];
  }

  /** The tasks matching every filter given: of a domain, of a category, targeting a hazard kind. */
  select({ domain, category, kind }: { domain?: string | undefined; category?: string | undefined; kind?: string | undefined }): TaskSpec[] {
    return this.list().filter(
      (task) =>
        (domain === undefined || task.id.startsWith(`${domain}/`)) &&
        (category === undefined || (task.categories as readonly string[]).includes(category)) &&
        (kind === undefined || task.targets.some((target) => target.kind === kind)),
    );
  }

  /** The task with this id (own entries only), or undefined. */
  get(id: string): TaskSpec | undefined {
    return this.tasks.get(id);
  }

  domain(task: TaskSpec): Domain {
    return this.domains.get(domainOf(task.id))!;
  }

  publicView(task: TaskSpec): PublicTask {
    const domain = this.domain(task);
    let policy = this.policies.get(domain.name);
    if (policy === undefined) {
      policy = readFileSync(domain.policyFile, 'utf8');
      this.policies.set(domain.name, policy);
    }
    return {
      id: task.id,
      domain: domain.name,
      title: task.title,
      categories: task.categories,
      request: task.request,
      follow_ups: task.follow_ups ?? [],
      now: ClockOptions.parse(task.setup.clock ?? {}).start,
      tools: domain.tools.map((tool) => tool.name),
      targets: task.targets.map(({ kind, tool }) => ({ kind, tool })),
      policy,
    };
  }

  /** The records the task's expected writes change, run in order on fresh databases without hazards. */
  expected(task: TaskSpec, compat: CompatMode): ChangedRecord[] {
    const key = `${compat}\u0000${task.id}`;
    let records = this.expectedStates.get(key);
    if (!records) {
      records = this.replay(task, compat);
      this.expectedStates.set(key, records);
    }
    return records;
  }

  /** Why the task's expected writes fail on its domain's database, or undefined when they all run (their end state is then kept). */
  private replayFails(task: TaskSpec): string | undefined {
    try {
      this.expected(task, 'off');
      return undefined;
    } catch (error) {
      return `a gold write fails on the database: ${(error as Error).message}`;
    }
  }

  private replay(task: TaskSpec, compat: CompatMode): ChangedRecord[] {
    const domain = this.domain(task);
    const state = new DomainState(this.bases.get(domain.name)!);
    const clock = new SessionClock(ClockOptions.parse(task.setup.clock ?? {}));
    for (const write of task.expect.writes) {
      const tool = domain.tools.find((candidate) => candidate.name === write.tool)!;
      const at = clock.tick();
      const args = tool.input.parse(write.args);
      state.transact((tables) => tool.run(args, tables, { session: `expected:${task.id}`, now: () => new Date(at), compat }));
    }
    return changedRecords(new Map([[domain.name, state]]));
  }
}
