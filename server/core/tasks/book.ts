import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Domain } from '../../../domains/domain.js';
import { type AnyTaskTemplate, NoInstance } from '../../../domains/task.js';
import { hash32 } from '../../../lib/random.js';
import type { CompatMode } from '../../../domains/tool.js';
import type { TaskCategory } from '../../../lib/task-terms.js';
import type { PublicTask, TaskSpec } from '../../../scoring/task.js';
import type { TaskTarget } from '../../../lib/task-terms.js';
import type { BaseDatabase } from '../data/base.js';
import { problemError } from '../problem.js';
import { answerTools, type RecordAnswer } from './answer-tool.js';
import { specInstance, type TaskInstance, templateInstance } from './instance.js';
import { importTau2Tasks, type Tau2Import } from './tau2-file.js';
import { MAX_SEED, SPLITS } from './seeds.js';
import { CACHED_WORLDS, Worlds } from './worlds.js';
import type { AnyTool } from '../../../domains/tool.js';

/** A task as listed: what it is, before any seed makes it concrete. */
export interface TaskEntry {
  readonly id: string;
  readonly domain: Domain;
  readonly title: string;
  readonly categories: readonly TaskCategory[];
  readonly targets: readonly TaskTarget[];
  /** How many requests (turns) it has. */
  readonly turns: number;
  /** `template`: its records, words and outcome come from the seed; `data`: one set of data whatever the seed (an imported tau2-bench task). */
  readonly source: 'template' | 'data';
}

interface Entry extends TaskEntry {
  build(seed: number): TaskInstance;
}

/** Instances kept after their last session, least recently used first out. */
export const CACHED_INSTANCES = 512;
/** Worlds a seed's instance of a template may be picked from before its failure is a bug. */
export const WORLD_ATTEMPTS = 4;

/** The world of a seed's instance: the seed's own, then (when it lacks what the template needs) others derived from it. */
export const worldSeed = (seed: number, attempt: number): number =>
  attempt === 0 ? seed : SPLITS.train.first + (hash32('world', seed, attempt) % (MAX_SEED - SPLITS.train.first));

/**
 * Every domain's tasks and their instances. A domain's tasks are its templates (loaded on first use), or the
 * tasks of a tau2-bench tasks.json given for it. An instance is built on first use for its seed (its world,
 * its picks, its reference run) and kept in a bounded cache; the sessions running it hold it.
 */
export class TaskBook {
  private loaded: Promise<Map<string, Entry>> | undefined;
  private entries: Map<string, Entry> | undefined;
  private readonly domains: ReadonlyMap<string, Domain>;
  private readonly instances = new Map<string, TaskInstance>();
  private readonly policies = new Map<string, string>();
  private readonly answerToolsOf = new WeakMap<TaskInstance, AnyTool[]>();
  readonly worlds: Worlds;
  /** What each imported tasks.json gave, by domain. */
  readonly imports: Tau2Import[] = [];
  private readonly loaders: (() => Promise<Entry[]>)[] = [];

  /** `taskFiles`: a tau2-bench tasks.json by domain name, whose tasks replace the embedded ones (a bad file is a ConfigError). */
  constructor(
    domains: readonly Domain[],
    readonly bases: ReadonlyMap<string, BaseDatabase>,
    taskFiles: Readonly<Record<string, string>> = {},
    readonly compat: CompatMode = 'off',
    /** Records a session's answer: what submit_answer does (the app gives its session store's). */
    private readonly recordAnswer: RecordAnswer = () => {
      throw new Error('this task book records no answers');
    },
  ) {
    this.domains = new Map(domains.map((domain) => [domain.name, domain]));
    // Instances hold their world: one that leaves the cache takes its instances with it, so that memory stays bounded by the cached worlds.
    this.worlds = new Worlds(bases, CACHED_WORLDS, (domainName, seed) => {
      for (const key of this.instances.keys()) {
        const [id, instanceSeed] = key.split('\u0000') as [string, string];
        if (Number(instanceSeed) === seed && id.startsWith(`${domainName}/`)) this.instances.delete(key);
      }
    });
    for (const domain of domains) {
      const base = bases.get(domain.name);
      // A domain without a database (the OpenAPI document is rendered without them) has no tasks.
      if (!base) continue;
      const file = Object.hasOwn(taskFiles, domain.name) ? taskFiles[domain.name] : undefined;
      if (file !== undefined) {
        const { tasks, report } = importTau2Tasks(domain, file, base, (task) => this.replayFails(task, domain, base));
        this.imports.push(report);
        const entries = tasks.map((spec) => this.specEntry(spec, domain, base));
        this.loaders.push(async () => entries);
        continue;
      }
      // Tasks name records of the embedded default data: a domain served from another file has none.
      if (base.source !== fileURLToPath(domain.fixtureFile)) continue;
      const { tasks: templates } = domain;
      if (templates) this.loaders.push(async () => (await templates()).map((template) => this.templateEntry(template, domain)));
    }
  }

  /** Loads every domain's tasks, once. */
  async ready(): Promise<this> {
    if (!this.entries) {
      this.loaded ??= Promise.all(this.loaders.map((load) => load())).then((lists) => new Map(lists.flat().map((entry) => [entry.id, entry])));
      this.entries = await this.loaded;
    }
    return this;
  }

  private get all(): Map<string, Entry> {
    if (!this.entries) throw new Error('the task book is not loaded: await ready() first');
    return this.entries;
  }

  get size(): number {
    return this.all.size;
  }

  list(): TaskEntry[] {
    return [...this.all.values()];
  }

  /** The tasks matching every filter given: of a domain, of a category, targeting a hazard kind. */
  select({ domain, category, kind }: { domain?: string | undefined; category?: string | undefined; kind?: string | undefined }): TaskEntry[] {
    return this.list().filter(
      (task) =>
        (domain === undefined || task.domain.name === domain) &&
        (category === undefined || (task.categories as readonly string[]).includes(category)) &&
        (kind === undefined || task.targets.some((target) => target.kind === kind)),
    );
  }

  /** The task with this id (own entries only), or undefined. */
  get(id: string): TaskEntry | undefined {
    return this.all.get(id);
  }

  /** The task with this id, or a 404 problem naming `field`. */
  require(id: string, field = 'task'): TaskEntry {
    const task = this.get(id);
    if (!task) throw problemError(404, 'unknown_task', `No task ${JSON.stringify(id)}; GET /tasks lists them.`, { field });
    return task;
  }

  /**
   * The task's instance for a seed: built on first use (synchronously, so that a session restored from disk can
   * rebuild it inside a lookup), then cached; a failed build throws, and is not kept. The book must be ready.
   */
  instance(id: string, seed: number): TaskInstance {
    const entry = this.all.get(id);
    if (!entry) throw problemError(404, 'unknown_task', `No task ${JSON.stringify(id)}; GET /tasks lists them.`, { field: 'task' });
    const key = `${id}\u0000${seed}`;
    let instance = this.instances.get(key);
    if (instance) this.instances.delete(key);
    else instance = entry.build(seed);
    this.instances.set(key, instance);
    if (this.instances.size > CACHED_INSTANCES) this.instances.delete(this.instances.keys().next().value!);
    return instance;
  }

  policy(domain: Domain): string {
    let policy = this.policies.get(domain.name);
    if (policy === undefined) {
      policy = readFileSync(domain.policyFile, 'utf8');
      this.policies.set(domain.name, policy);
    }
    return policy;
  }

  publicView(instance: TaskInstance): PublicTask {
    const { domain, turns } = instance;
    return {
      id: instance.id,
      seed: instance.seed,
      domain: domain.name,
      title: instance.title,
      categories: [...instance.categories],
      request: turns[0]!.request,
      follow_ups: turns.slice(1).map((turn) => turn.request),
      now: instance.clock.start,
      tools: domain.tools.map((tool) => tool.name),
      targets: instance.scored.targets.map(({ kind, tool }) => ({ kind, tool })),
      policy: this.policy(domain),
      answer_schemas: turns.map((turn) => turn.answer?.json ?? null),
      given: instance.given,
    };
  }

  /** The submit_answer tool of the session's current turn; undefined for a task answered in words. */
  answerTool(instance: TaskInstance, answered: number): AnyTool | undefined {
    if (!instance.turns[0]?.answer) return undefined;
    let tools = this.answerToolsOf.get(instance);
    if (!tools) {
      tools = answerTools(instance, (session, answer) => this.recordAnswer(session, answer));
      this.answerToolsOf.set(instance, tools);
    }
    return tools[Math.min(answered, tools.length - 1)];
  }

  private templateEntry(template: AnyTaskTemplate, domain: Domain): Entry {
    return {
      id: template.id,
      domain,
      title: template.title,
      categories: template.categories,
      targets: template.targets,
      turns: 1 + (template.follow_ups?.length ?? 0),
      source: 'template',
      build: (seed) => {
        // A world without what the template needs (NoInstance) gives way to the next world of the same seed's line.
        for (let attempt = 0; ; attempt++) {
          const world = this.worlds.get(domain, worldSeed(seed, attempt));
          try {
            return templateInstance(template, domain, world, seed, this.compat);
          } catch (error) {
            if (!(error instanceof NoInstance) || seed === 0 || attempt + 1 >= WORLD_ATTEMPTS) throw error;
          }
        }
      },
    };
  }

  private specEntry(spec: TaskSpec, domain: Domain, base: BaseDatabase): Entry {
    return {
      id: spec.id,
      domain,
      title: spec.title,
      categories: spec.categories,
      targets: spec.targets,
      turns: 1 + (spec.follow_ups?.length ?? 0),
      source: 'data',
      build: (seed) => specInstance(spec, domain, base, seed, this.compat),
    };
  }

  /** Why a task's gold writes fail on its domain's database, or undefined when they all run. */
  private replayFails(task: TaskSpec, domain: Domain, base: BaseDatabase): string | undefined {
    try {
      specInstance(task, domain, base, 0, 'off');
      return undefined;
    } catch (error) {
      return `a gold write fails on the database: ${(error as Error).message}`;
    }
  }

  /** The domain of this name, if served. */
  domainNamed(name: string): Domain | undefined {
    return this.domains.get(name);
  }
}
