import { readFile } from 'node:fs/promises';
import { parseYamlText as parseYaml } from '../../lib/yaml.js';
import { parseJsonText } from '../../lib/json.js';
import { ProxyConfigError } from './config.js';

/** The largest OpenAPI document read. */
const MAX_DOCUMENT_BYTES = 8 * 1_048_576;

/** An upstream's OpenAPI document, from a file or an http(s) URL, as JSON or YAML; a failure names the source. */
export async function loadDocument(source: string, where: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = /^https?:\/\//i.test(source) ? await fetchText(source) : await readFile(source, 'utf8');
  } catch (error) {
    throw new ProxyConfigError(`${where}: openapi: cannot read ${source} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
  if (text.length > MAX_DOCUMENT_BYTES) throw new ProxyConfigError(`${where}: openapi: ${source} is larger than ${MAX_DOCUMENT_BYTES} bytes`);
  let document: unknown;
  try {
    document = text.trimStart().startsWith('{') ? parseJsonText(text) : parseYaml(text);
  } catch (error) {
    throw new ProxyConfigError(`${where}: openapi: ${source} is neither JSON nor YAML (${(error as Error).message.split('\n')[0]})`);
  }
  if (typeof document !== 'object' || document === null || typeof (document as Record<string, unknown>)['paths'] !== 'object')
    throw new ProxyConfigError(`${where}: openapi: ${source} is not an OpenAPI document (no paths)`);
  return document as Record<string, unknown>;
}

async function fetchText(url: string): Promise<string> {
  // Loaded when a document is fetched only: a server without proxies never loads the HTTP client.
  const { request } = await import('undici');
  const { statusCode, body } = await request(url, { headersTimeout: 10_000, bodyTimeout: 10_000 });
  if (statusCode !== 200) {
    await body.dump();
    throw new Error(`HTTP ${statusCode}`);
  }
  return body.text();
}
