import { createRequire } from 'node:module';

type Parse = (text: string) => unknown;
let parse: Parse | undefined;

/**
 * Parses YAML text. The parser is loaded on first use only: merely loading it costs the server about a tenth
 * of its call throughput (measured with `npm run bench`), and most servers never read YAML.
 */
export function parseYamlText(text: string): unknown {
  parse ??= (createRequire(import.meta.url)('yaml') as { parse: Parse }).parse;
  return parse(text);
}
