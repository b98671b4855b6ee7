import type { JournalEntry } from '../../client/index.js';
import { type Command, UsageError } from '../command.js';
import { clientFor, remoteOptions } from '../remote.js';

export const journal: Command = {
  name: 'journal',
  summary: "Print a session's calls as a timeline, from a running server: status, outcome, hazards injected (marked !), records changed.",
  arguments: ['session'],
  options: [...remoteOptions, { name: 'since', value: 'N', description: 'only the calls after sequence number N' }],
  async run(values, [session], io) {
    const sinceText = values['since'] as string | undefined;
    if (sinceText !== undefined && !/^\d+$/.test(sinceText)) throw new UsageError(`--since ${sinceText}: expected a sequence number`);
    const since = sinceText === undefined ? undefined : Number(sinceText);
    const client = clientFor(values, io.env);
    try {
      const entries = await client.sessions.journal(session, since);
      io.out(renderJournal(session!, entries));
      return 0;
    } finally {
      await client.close();
    }
  },
};

const SHOWN = 120;
const short = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
};

/** One entry: a head line (seq, session time, tool, status, outcome) and indented details. */
function renderEntry(entry: JournalEntry): string {
  const outcome = entry.problem ? `${entry.problem.code ?? entry.problem.title}: ${entry.problem.detail}` : entry.status < 400 ? 'ok' : 'failed';
  const lines = [
    `#${entry.seq}  ${entry.at}  ${entry.domain}/${entry.tool} (call ${entry.call})  ${entry.status} ${outcome}`,
    `    args    ${short(entry.args)}`,
  ];
  if (entry.idempotency?.replayed !== undefined)
    lines.push(`    replay  of call #${entry.idempotency.replayed} (idempotency key ${entry.idempotency.key}): nothing written`);
  for (const hazard of entry.hazards) {
    const written = hazard.committed === undefined ? '' : hazard.committed ? ', the write committed' : ', nothing ran';
    lines.push(`  ! hazard  ${hazard.kind} (${hazard.family}${hazard.retryable ? ', retryable' : ''}${written}): ${hazard.recovery}`);
  }
  if (entry.changes.length > 0) lines.push(`    changed ${entry.changes.map((change) => `${change.table}/${change.id}`).join(', ')}`);
  return lines.join('\n');
}

/** The timeline and a closing summary. */
export function renderJournal(session: string, entries: readonly JournalEntry[]): string {
  if (entries.length === 0) return `Session ${session}: no calls.\n`;
  const refused = entries.filter((entry) => entry.status >= 400).length;
  const hazarded = entries.filter((entry) => entry.hazards.length > 0).length;
  const records = new Set(entries.flatMap((entry) => entry.changes.map((change) => `${entry.domain}:${change.table}/${change.id}`)));
  const summary =
    `${entries.length} calls: ${entries.length - refused} answered, ${refused} refused or failed, ${hazarded} hit by hazards; ${records.size} ` +
    `records changed`;
  return `Session ${session}\n${entries.map(renderEntry).join('\n')}\n${summary}\n`;
}
