// Where a name appears in documentation as an identifier rather than as a word of the prose: a renamed
// parameter is renamed there, and the sentence that uses the same word in its ordinary sense is left alone
// ("open for booking on a date" keeps its date when the parameter `date` becomes `departure_date`).

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A name no prose word spells: snake_case, with digits, or camelCase. */
const codeLike = (name: string) => /[_\d]|[a-z][A-Z]/.test(name);

/**
 * `text` with the identifier `from` renamed `to`: every whole occurrence of a name no word spells
 * (`user_id`); of a plain word (`date`, `hours`), only where the text marks it as code: in backticks or
 * quotes, before `=` (`hours=24`), or named as a parameter or argument ("the hours parameter").
 */
export function renameIdentifier(text: string, from: string, to: string): string {
  const name = escaped(from);
  if (codeLike(from)) return text.replace(new RegExp(`(?<!\\w)${name}(?!\\w)`, 'g'), to);
  const quoted = `(?<=[\`'"])${name}(?=[\`'".[=])`;
  const assigned = `(?<![\\w.])${name}(?==)`;
  const named = `(?<![\\w.])${name}(?=\\s+(?:parameters?|arguments?)\\b)`;
  return text.replace(new RegExp(`${quoted}|${assigned}|${named}`, 'g'), to);
}
