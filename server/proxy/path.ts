import { problemError } from '../core/problem.js';

// A proxied path stays below the upstream's base path however it is written. An upstream (or a server in
// front of it) may decode `%2e`, `%2F` or `%252e` and treat `\` as `/` before it resolves `..`, so the check
// reads the path the most eager way: percent-decoded until nothing changes, backslashes as slashes.

/** Rounds of percent-decoding after which a path counts as encoded beyond any legitimate use. */
const MAX_DECODINGS = 3;

const isDotSegment = (segment: string) => segment === '.' || segment === '..';

/**
 * The path the upstream receives below its base, for the path a client sent after `/proxy/{name}` (its
 * query cut off, still percent-encoded): exactly as sent when no reading of it has a `.` or `..` segment;
 * otherwise resolved in the eager reading and sent in canonical form. One that would climb above the base
 * is refused with a 400 problem (`invalid_path`).
 */
export function upstreamPath(sent: string): string {
  const segments = eagerSegments(sent);
  if (!segments.some(isDotSegment)) return sent;
  const kept: string[] = [];
  for (const segment of segments) {
    if (segment === '..') {
      if (kept.length === 0) throw outside(sent);
      kept.pop();
    } else if (segment !== '.') kept.push(segment);
  }
  const trailing = isDotSegment(segments.at(-1)!) ? '/' : '';
  return `/${kept.map(encodeURIComponent).join('/')}${kept.length > 0 ? trailing : ''}`;
}

/** The raw path after `/proxy/{name}` in a request's URL (`/s/{id}` already cut), without its query: `/` at least. */
export function pathAfterProxy(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  // '', 'proxy', the name, then the rest.
  return `/${path.split('/').slice(3).join('/')}`;
}

/** The segments of a path percent-decoded until stable, `\` read as `/`. */
function eagerSegments(path: string): string[] {
  let text = path;
  for (let round = 0; ; round++) {
    const decoded = decodeOnce(text);
    if (decoded === text) break;
    if (round === MAX_DECODINGS)
      throw problemError(400, 'invalid_path', `The path ${path} is percent-encoded more than ${MAX_DECODINGS} times over.`, { field: 'path' });
    text = decoded;
  }
  return text.replaceAll('\\', '/').split('/').slice(1);
}

/**
 * One round of percent-decoding: ASCII escapes always (they carry the dots and slashes that matter), runs of
 * others as UTF-8 when they are (a Latin-1 `%E9` stays as it is).
 */
function decodeOnce(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%[0-7][0-9a-f]/gi, (ascii) => String.fromCharCode(Number.parseInt(ascii.slice(1), 16)));
    }
  });
}

const outside = (path: string) =>
  problemError(
    400,
    'invalid_path',
    `The path ${path} would leave the upstream's base path once decoded (.. segments, encoded dots and slashes, backslashes): it was not forwarded.`,
    { field: 'path' },
  );
