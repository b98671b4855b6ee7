import { readBoundedText } from '../../../lib/bounded-file.js';
import { parseJsonText } from '../../../lib/json.js';
import { isObject } from '../../../lib/object.js';
import { parseYamlText } from '../../../lib/yaml.js';
import { ProxyConfigError } from '../config.js';
import type { MockRecord } from './mock.js';

const MAX_SEED_BYTES = 8 * 1_048_576;

/** A mock's initial records (`mock.seed_file`): an object of resource → array of records, JSON or YAML. */
export function loadSeedFile(path: string, where: string): Record<string, MockRecord[]> {
  let data: unknown;
  try {
    const text = readBoundedText(path, MAX_SEED_BYTES);
    data = /\.ya?ml$/i.test(path) ? parseYamlText(text) : parseJsonText(text);
  } catch (error) {
    throw new ProxyConfigError(`${where}: mock.seed_file: ${path}: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!isObject(data)) throw new ProxyConfigError(`${where}: mock.seed_file: ${path}: an object of resource → array of records`);
  for (const [resource, records] of Object.entries(data))
    if (!Array.isArray(records) || !records.every(isObject))
      throw new ProxyConfigError(`${where}: mock.seed_file: ${path}: ${resource}: an array of records (objects)`);
  return data as Record<string, MockRecord[]>;
}
