import { readBoundedText } from '../../lib/bounded-file.js';
import { parseJsonText } from '../../lib/json.js';
import { parseYamlText as parseYaml } from '../../lib/yaml.js';
import { ProxyConfigError } from './config.js';
import { fetchWhole } from './fetch.js';

/** The largest OpenAPI document read. */
const MAX_DOCUMENT_BYTES = 8 * 1_048_576;
/** How long fetching a document may take, whole. */
const FETCH_TIMEOUT_MS = 10_000;

/** Whether an `openapi` source is fetched (an http(s) URL) rather than read as a file. */
export const isDocumentUrl = (source: string): boolean => /^https?:\/\//i.test(source);

/** An upstream's OpenAPI document, from a file or an http(s) URL, as JSON or YAML, or given whole; a failure names the source. */
export async function loadDocument(source: string | Record<string, unknown>, where: string): Promise<Record<string, unknown>> {
  if (typeof source !== 'string') return checked(structuredClone(source), 'the inline document', where);
  let text: string;
  if (isDocumentUrl(source)) {
    try {
      text = await fetchText(source);
    } catch (error) {
      throw new ProxyConfigError(`${where}: openapi: cannot read ${source} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`, 'openapi');
    }
    if (text.length > MAX_DOCUMENT_BYTES) throw new ProxyConfigError(`${where}: openapi: ${source} is larger than ${MAX_DOCUMENT_BYTES} bytes`, 'openapi');
  } else {
    try {
      // Read with a bound: a device or a huge file stops at the limit.
      text = readBoundedText(source, MAX_DOCUMENT_BYTES);
    } catch (error) {
      throw new ProxyConfigError(`${where}: openapi: ${source}: ${(error as Error).message}`, 'openapi');
    }
  }
  let document: unknown;
  try {
    document = text.trimStart().startsWith('{') ? parseJsonText(text) : parseYaml(text);
  } catch (error) {
    throw new ProxyConfigError(`${where}: openapi: ${source} is neither JSON nor YAML (${(error as Error).message.split('\n')[0]})`, 'openapi');
  }
  return checked(document, source, where);
}

function checked(document: unknown, source: string, where: string): Record<string, unknown> {
  if (typeof document !== 'object' || document === null || typeof (document as Record<string, unknown>)['paths'] !== 'object')
    throw new ProxyConfigError(`${where}: openapi: ${source} is not an OpenAPI document (no paths)`, 'openapi');
  return document as Record<string, unknown>;
}

/** A document over HTTP, whole within the deadline and the size limit; redirects are not followed. */
async function fetchText(url: string): Promise<string> {
  const answer = await fetchWhole({
    url,
    method: 'GET',
    headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5', 'accept-encoding': 'identity' },
    body: undefined,
    timeoutMs: FETCH_TIMEOUT_MS,
    maxBodyBytes: MAX_DOCUMENT_BYTES,
  });
  if (answer.status !== 200) throw new Error(`HTTP ${answer.status}`);
  return answer.body.toString('utf8');
}
