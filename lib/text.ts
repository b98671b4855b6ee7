/** Case- and accent-insensitive form of a string, for matching what a person says or types. */
export function foldForMatch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().trim();
}

/** Edit distance between two strings (insertions, deletions, substitutions). */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The candidates closest to `word`: within a third of its length in edits, or sharing its stem. */
export function nearMatches(word: string, candidates: Iterable<string>, limit = 3): string[] {
  const scored: [string, number][] = [];
  const budget = Math.max(2, Math.floor(word.length / 3));
  for (const candidate of candidates) {
    const distance = editDistance(word, candidate);
    const related = candidate.includes(word) || word.includes(candidate);
    if (distance <= budget || related) scored.push([candidate, related ? Math.min(distance, budget) : distance]);
  }
  return scored
    .sort((x, y) => x[1] - y[1] || x[0].localeCompare(y[0]))
    .slice(0, limit)
    .map(([name]) => name);
}

/** A name as environment variables spell it: upper case, `-` as `_` (`smart-home` → `SMART_HOME`). */
export const envWord = (name: string): string => name.toUpperCase().replaceAll('-', '_');

const HEADER_SUBSTITUTES: Record<string, string> = {
  '↔': '<->',
  '→': '->',
  '←': '<-',
  '°': ' deg',
  '—': '-',
  '–': '-',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '…': '...',
};

/** Text a header can carry: printable ASCII, accents dropped, a few symbols spelled out, anything else as '?'. */
export const headerText = (text: string): string =>
  text
    .replace(/[↔→←°—–‘’“”…]/g, (symbol) => HEADER_SUBSTITUTES[symbol] ?? '?')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^\x20-\x7e]/g, '?');
