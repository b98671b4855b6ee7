import type { HazardEvent } from '../../../hazards/event.js';
import { isObject } from '../../../lib/object.js';
import type { Score } from '../../../scoring/score.js';
import type { JournalEntry } from '../../core/sessions/journal.js';
import { compact, cut, type Html, html, sessionTime } from './html.js';

// The timeline: one row per call, with what happened to it and what the score says of it.

/** What the score says of each call: the hazards it shows a recovery from, the traps it fell in. */
interface Marks {
  recovered: Map<number, string[]>;
  traps: Map<number, string[]>;
}

const push = (map: Map<number, string[]>, seq: number, text: string) => map.set(seq, [...(map.get(seq) ?? []), text]);

/** Without a score (a session without a task), the traps are the calls the journal marks as doing what a planted text asked. */
const TRAP_WITHOUT_SCORE = 'did what an instruction inside the data said';

function marksOf(score: Score | undefined, entries: readonly JournalEntry[]): Marks {
  const marks: Marks = { recovered: new Map(), traps: new Map() };
  for (const verdict of score?.hazards ?? []) if (verdict.recovered) for (const seq of verdict.evidence) push(marks.recovered, seq, verdict.kind);
  for (const trap of score?.traps ?? []) push(marks.traps, trap.seq, trap.why);
  if (!score) for (const entry of entries) if (entry.hazards.some((event) => event['trap'] === true)) push(marks.traps, entry.seq, TRAP_WITHOUT_SCORE);
  return marks;
}

function hazardBadge(event: HazardEvent): Html {
  const details = [
    event.recovery,
    event.hint,
    event.retryable ? 'a retry gets past it' : undefined,
    event.committed === undefined ? undefined : event.committed ? 'the write ran before its answer was lost' : 'nothing ran',
  ].filter((text) => text !== undefined);
  return html`<span class="badge hazard" data-hazard="${event.kind}" title="${details.join(' — ')}">${event.kind}</span>`;
}

/** A call that gave no usable HTTP answer: an error status, or none at all (a cut connection). */
export const failed = (entry: JournalEntry): boolean => entry.status < 200 || entry.status >= 400;

function outcome(entry: JournalEntry): string {
  if (!failed(entry)) return 'ok';
  if (entry.status === 0) return 'no answer: the connection failed';
  const body: unknown = entry.problem;
  if (isObject(body) && typeof body['detail'] === 'string') return cut(`${body['code'] ?? body['title']}: ${body['detail']}`, 200);
  return `another server's answer: ${compact(body)}`;
}

function args(entry: JournalEntry): Html {
  if (!entry.args_truncated) return html`<code>${compact(entry.args)}</code>`;
  const { bytes, kept } = entry.args_truncated;
  return html`<code>${cut(String(entry.args))}</code> <small>(${bytes} bytes sent, ${kept} kept)</small>`;
}

function writes(entry: JournalEntry): Html[] {
  const marks = entry.changes.map((change) => {
    const verb = change.value === null ? 'deleted' : 'wrote';
    return html`<span class="badge write" data-write="${change.table}/${change.id}">${verb} ${change.table}/${change.id}</span>`;
  });
  const replayed = entry.idempotency?.replayed;
  if (replayed !== undefined) marks.push(html`<span class="badge replay" data-replayed="${replayed}">replay of #${replayed}, nothing written</span>`);
  return marks;
}

const recoveredBadge = (kind: string): Html => html`<span class="badge recovered" data-recovered="${kind}">recovered from ${kind}</span>`;
const trapBadge = (why: string): Html => html`<span class="badge trap" data-trap="${why}">trap: ${why}</span>`;

function row(entry: JournalEntry, marks: Marks): Html {
  const recovered = marks.recovered.get(entry.seq) ?? [];
  const traps = marks.traps.get(entry.seq) ?? [];
  return html`<tr data-seq="${entry.seq}" data-status="${entry.status}" class="${failed(entry) ? 'failed' : 'ok'}${
    entry.hazards.length > 0 ? ' hazarded' : ''
  }">
<td class="seq">#${entry.seq}</td><td class="at"><time datetime="${new Date(entry.at).toISOString()}">${sessionTime(entry.at)}</time></td>
<td class="tool">${entry.domain}/<b>${entry.tool}</b> <small>call ${entry.call}</small></td><td class="args">${args(entry)}</td>
<td class="status"><span class="code">${entry.status}</span> ${outcome(entry)}</td>
<td class="marks">${entry.hazards.map(hazardBadge)}${recovered.map(recoveredBadge)}${traps.map(trapBadge)}${writes(entry)}</td>
</tr>`;
}

/** The calls as a table, oldest first; `dropped`: the oldest calls the journal no longer holds. */
export function timelineSection(entries: readonly JournalEntry[], dropped: number, score: Score | undefined): Html {
  const marks = marksOf(score, entries);
  const note = dropped > 0 ? html`<p class="note">The oldest ${dropped} call(s) were dropped from the journal (JOURNAL_LIMIT).</p>` : '';
  const body =
    entries.length === 0
      ? html`<p class="empty">No calls yet.</p>`
      : html`<table><thead><tr><th>seq</th><th>session time</th><th>tool</th><th>arguments</th><th>status</th><th>marks</th></tr></thead>
<tbody>${entries.map((entry) => row(entry, marks))}</tbody></table>`;
  return html`<section id="timeline"><h2>Timeline <small>${entries.length} call(s)</small></h2>${note}${body}</section>`;
}
