import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { domainOf, TaskSpec } from './task.js';

/** A task file that is not a valid task: names the file and what is wrong. */
export class TaskFileError extends Error {
  override readonly name = 'TaskFileError';
}

/**
 * A domain's tasks: every `NNN.json` in its folder, in order, each validated; its id must be
 * `<domain>/NNN` and every tool it names one of the domain's.
 */
export function loadTasks(domain: string, folder: URL, tools: ReadonlySet<string>): TaskSpec[] {
  if (!existsSync(folder)) return [];
  const files = readdirSync(folder)
    .filter((name) => name.endsWith('.json'))
    .sort();
  return files.map((name) => {
    const where = `${domain}/tasks/${name}`;
    let task: TaskSpec;
    try {
      task = TaskSpec.parse(JSON.parse(readFileSync(new URL(name, folder), 'utf8')));
    } catch (error) {
      const detail = error instanceof z.ZodError ? z.prettifyError(error) : (error as Error).message;
      throw new TaskFileError(`${where}: ${detail}`);
    }
    const expectedId = `${domain}/${name.slice(0, -'.json'.length)}`;
    if (task.id !== expectedId || domainOf(task.id) !== domain) throw new TaskFileError(`${where}: its id must be ${expectedId}, not ${task.id}`);
    const named = [
      ...task.targets.flatMap((target) => [target.tool, ...(target.via ?? [])]),
      ...task.expect.writes.map((write) => write.tool),
      ...task.forbidden.map((rule) => rule.tool),
    ];
    const unknown = named.filter((tool) => !tools.has(tool));
    if (unknown.length > 0) throw new TaskFileError(`${where}: no tool named ${unknown.join(', ')} in ${domain}`);
    return task;
  });
}
