import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';

// Source lines are at most 160 characters (biome formats to that width but leaves long strings, regular
// expressions and comments alone). A line may be longer only right after a `// long-line: <why>` comment.
// Generated files (OpenAPI documents, their types, client schemas, dist/) are not checked.

const LIMIT = 160;
const root = fileURLToPath(new URL('../../', import.meta.url));
const GENERATED = [/^openapi\//, /^test\/openapi\/types\//, /^client\/schemas\//, /^dist\//, /(^|\/)node_modules\//];

const sources = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts', '*.mjs', '*.js'], {
  cwd: root,
  encoding: 'utf8',
})
  .trim()
  .split('\n')
  .filter((path) => !GENERATED.some((pattern) => pattern.test(path)) && existsSync(join(root, path)));

/** `file:line (length)` of every line over the limit that no `// long-line:` comment justifies. */
function longLines(path: string, text: string): string[] {
  const lines = text.split(/\r?\n/);
  return lines.flatMap((line, index) =>
    line.length > LIMIT && !/^\s*\/\/ long-line: \S/.test(lines[index - 1] ?? '') ? [`${path}:${index + 1} (${line.length} characters)`] : [],
  );
}

t.ok(sources.length > 100, `the sources are found (${sources.length})`);
t.ok(sources.includes('server/http/view/score.ts'), 'server sources are checked');
t.same(
  sources.flatMap((path) => longLines(path, readFileSync(join(root, path), 'utf8'))),
  [],
  `source lines are at most ${LIMIT} characters`,
);
t.same(longLines('x.ts', `a\n${'x'.repeat(LIMIT + 1)}`), ['x.ts:2 (161 characters)'], 'a long line is found');
t.same(longLines('x.ts', `// long-line: a URL\n${'x'.repeat(LIMIT + 1)}`), [], 'a justified long line passes');
