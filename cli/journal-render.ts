import { STATUS_CODES } from 'node:http';
import type { JournalEntry } from '../client/index.js';

// `wildtools journal`'s text: one block per call, then a summary. Any answer renders: a success, problem JSON,
// or a body in another server's style (a gateway's page, a foreign JSON error) that a hazard answered instead.

const SHOWN = 120;
const short = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
};

type Hazard = JournalEntry['hazards'][number];

/** A hazard event that marks a call doing what a planted text asked (hazards/follow-ups.ts). */
export const isTrap = (hazard: Hazard): boolean => hazard['trap'] === true;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** RFC 9457 problem JSON names at least a title or a detail as text. */
function problemText(body: Record<string, unknown>): string | undefined {
  const { code, title, detail } = body;
  const name = typeof code === 'string' ? code : typeof title === 'string' ? title : undefined;
  if (typeof detail !== 'string') return name;
  return name === undefined ? detail : `${name}: ${detail}`;
}

/** The status line, then what the answer says: the problem's code or title and detail, or the first bytes of a foreign body. */
export function outcomeOf(status: number, problem: unknown): string {
  const line = `${status} ${STATUS_CODES[status] ?? 'Unknown Status'}`;
  if (problem === undefined || problem === null || problem === '') return line;
  const text = isObject(problem) ? problemText(problem) : undefined;
  return text === undefined ? `${line}: ${short(problem)}` : `${status} ${text}`;
}

function hazardLine(hazard: Hazard): string {
  if (isTrap(hazard)) {
    const planted = isObject(hazard['planted_by']) ? ` planted by ${hazard['planted_by']['tool']} (call ${hazard['planted_by']['call']})` : '';
    const field = typeof hazard['field'] === 'string' ? ` in its ${hazard['field']}` : '';
    return `  ! TRAP    ${hazard.kind}: did what a text${planted}${field} asked; ${hazard.recovery}`;
  }
  const written = hazard.committed === undefined ? '' : hazard.committed ? ', the write committed' : ', nothing ran';
  return `  ! hazard  ${hazard.kind} (${hazard.family}${hazard.retryable ? ', retryable' : ''}${written}): ${hazard.recovery}`;
}

/** One entry: a head line (seq, session time, tool, status, outcome) and indented details. */
function renderEntry(entry: JournalEntry): string {
  const lines = [
    `#${entry.seq}  ${entry.at}  ${entry.domain}/${entry.tool} (call ${entry.call})  ${outcomeOf(entry.status, entry.problem)}`,
    `    args    ${short(entry.args)}`,
  ];
  if (entry.idempotency?.replayed !== undefined)
    lines.push(`    replay  of call #${entry.idempotency.replayed} (idempotency key ${entry.idempotency.key}): nothing written`);
  for (const hazard of entry.hazards) lines.push(hazardLine(hazard));
  if (entry.changes.length > 0) lines.push(`    changed ${entry.changes.map((change) => `${change.table}/${change.id}`).join(', ')}`);
  return lines.join('\n');
}

/** The timeline and a closing summary. */
export function renderJournal(session: string, entries: readonly JournalEntry[]): string {
  if (entries.length === 0) return `Session ${session}: no calls.\n`;
  const refused = entries.filter((entry) => entry.status >= 400).length;
  const hazarded = entries.filter((entry) => entry.hazards.some((hazard) => !isTrap(hazard))).length;
  const trapped = entries.filter((entry) => entry.hazards.some(isTrap)).length;
  const records = new Set(entries.flatMap((entry) => entry.changes.map((change) => `${entry.domain}:${change.table}/${change.id}`)));
  const summary =
    `${entries.length} calls: ${entries.length - refused} answered, ${refused} refused or failed, ${hazarded} hit by hazards, ` +
    `${trapped} fell into traps; ${records.size} records changed`;
  return `Session ${session}\n${entries.map(renderEntry).join('\n')}\n${summary}\n`;
}
