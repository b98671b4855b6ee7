import { escapeHtml } from '../../../lib/html.js';

// HTML built from templates whose substitutions are escaped unless they are HTML already: data can
// carry markup and injected instructions, so nothing from it reaches the page unescaped.

/** Markup that is safe as it is: built by `html`, never from data. */
export class Html {
  constructor(readonly text: string) {}
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

const render = (part: Part): string => {
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  if (part === null || part === undefined) return '';
  return escapeHtml(String(part));
};

/** A template: strings as written, every substitution escaped (arrays joined; null and undefined left out). */
export const html = (strings: TemplateStringsArray, ...parts: Part[]): Html =>
  new Html(strings.reduce((text, string, index) => text + string + (index < parts.length ? render(parts[index]!) : ''), ''));

const SHOWN = 120;

/** Text cut after a bound, with an ellipsis. */
export const cut = (text: string, shown = SHOWN): string => (text.length > shown ? `${text.slice(0, shown)}…` : text);

/** A value as short JSON. */
export const compact = (value: unknown): string => cut(JSON.stringify(value) ?? 'nothing');

/** Epoch milliseconds as a session time: date and time to the second, with its zone (UTC, `Z`). */
export const sessionTime = (ms: number): string => `${new Date(ms).toISOString().slice(0, 19)}Z`;
