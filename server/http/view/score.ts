import type { Fact } from '../../../scoring/task.js';
import type { SessionScore } from '../../core/tasks/judge.js';
import { compact, type Html, html } from './html.js';

// The score: success or failure first, then every reason the scorer gave, then the counts.

const seqs = (list: readonly number[]) => (list.length === 0 ? 'none' : list.map((seq) => `#${seq}`).join(', '));
const facts = (list: readonly Fact[]) => list.map((fact, index) => html`${index > 0 ? ', ' : ''}<q>${fact}</q>`);
const record = (r: { domain: string; table: string; id: string }) => html`<code>${r.domain}:${r.table}/${r.id}</code>`;

/** Why the run failed (or what went wrong on the way), one item per reason. */
function reasons(score: SessionScore): Html[] {
  const items: Html[] = [];
  const { state, answer } = score;
  for (const r of state.missing) items.push(html`<li data-reason="state">Expected change not made: ${record(r)} (${r.op}) → ${compact(r.after)}</li>`);
  for (const r of state.unexpected) items.push(html`<li data-reason="state">Unexpected change: ${record(r)} (${r.op}) → ${compact(r.after)}</li>`);
  for (const r of state.different)
    items.push(html`<li data-reason="state">Record differs from the expected one: ${record(r)}, fields ${r.fields.join(', ')}</li>`);
  if (!answer.answered) items.push(html`<li data-reason="answer">No answer recorded yet: the task fails as not answered.</li>`);
  for (const d of answer.differences)
    items.push(
      html`<li data-reason="answer">Answer${
        score.answer.differences.some((other) => other.turn > 1) ? ` ${d.turn}` : ''
      } differs at <code>${d.path}</code>: expected ${compact(d.expected)}, got ${compact(d.got)}</li>`,
    );
  if (answer.missing.length > 0) items.push(html`<li data-reason="answer">Facts the answer does not state: ${facts(answer.missing)}</li>`);
  if (answer.stated_but_excluded.length > 0)
    items.push(html`<li data-reason="answer">Facts the answer states and must not: ${facts(answer.stated_but_excluded)}</li>`);
  for (const trap of score.traps) items.push(html`<li data-reason="trap">Trap at #${trap.seq} (${trap.tool}): ${trap.why}</li>`);
  for (const claim of score.contradicted_claims) items.push(html`<li data-reason="claim">The answer claims <q>${claim}</q>, which the state contradicts</li>`);
  for (const dup of score.duplicated_writes) items.push(html`<li data-reason="duplicate">Duplicated write of ${dup.tool}: ${seqs(dup.calls)}</li>`);
  return items;
}

/** Writes the task did not ask for: evidence, not a verdict (a later call may have undone them). */
function unasked(score: SessionScore): Html {
  if (score.unasked_writes.length === 0) return html``;
  return html`<p class="note" data-unasked="${score.unasked_writes.length}">Writes the task did not ask for (even if undone later): ${score.unasked_writes.map(
    (w, i) => html`${i > 0 ? ', ' : ''}#${w.seq} ${w.tool}`,
  )}</p>`;
}

function hazards(score: SessionScore): Html {
  if (score.hazards.length === 0) return html`<p>No hazard hit the run.</p>`;
  const head = html`<thead><tr><th>hazard</th><th>tool</th><th>hits</th><th>blocking</th><th>verdict</th><th>evidence</th></tr></thead>`;
  const rows = score.hazards.map((v) => {
    const outcome = html`<td>${v.blocking ? 'yes' : 'no'}</td><td>${v.recovered ? 'recovered' : 'not recovered'}</td>`;
    const cells = html`<td>${v.kind}</td><td>${v.tool}</td><td>${seqs(v.hits)}</td>${outcome}<td>${seqs(v.evidence)}</td>`;
    return html`<tr data-verdict="${v.kind}" class="${v.recovered ? 'ok' : 'failed'}">${cells}</tr>`;
  });
  return html`<table class="verdicts">${head}<tbody>${rows}</tbody></table>`;
}

/** The score section of a task session. */
export function scoreSection(score: SessionScore): Html {
  const why = reasons(score);
  const incomplete = score.journal_complete ? '' : html`<p class="note">The journal dropped old calls: the verdicts on hazards and traps miss them.</p>`;
  return html`<section id="score" class="${score.success ? 'success' : 'failure'}">
<h2>Score <small>(seed ${String(score.seed)})</small></h2>
<p class="verdict" data-success="${score.success}">${score.success ? '✔ Success' : '✘ Failure'}</p>
${why.length > 0 ? html`<ul class="reasons">${why}</ul>` : html`<p>End state, answer and calls are as the task expects.</p>`}
${incomplete}
${unasked(score)}
<h3>Hazards</h3>${hazards(score)}
<p class="counts">${score.calls} call(s), ${score.retries} retr${score.retries === 1 ? 'y' : 'ies'}, ${score.failed_calls} failed call(s)</p>
</section>`;
}
