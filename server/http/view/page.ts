import type { RecordDiff } from '../../core/data/domain-state.js';
import type { JournalEntry } from '../../core/sessions/journal.js';
import type { SessionScore } from '../../core/tasks/judge.js';
import { answersSection } from './answers.js';
import type { SubmittedAnswer } from '../../../scoring/score.js';
import { diffSection } from './diff.js';
import { Html, html } from './html.js';
import { scoreSection } from './score.js';
import { STYLE } from './style.js';
import { timelineSection } from './timeline.js';

// The session page: one self-contained HTML document (no script, no external resource). While a run is live it
// reloads itself (a meta refresh, which needs no script); once the session is idle, the page it gets has none.

/** The header policy the page is sent with: its inline style and nothing else. */
export const VIEW_CSP = "default-src 'none'; style-src 'unsafe-inline'";

export interface SessionView {
  id: string;
  seed: string;
  clock: { start: string; step_ms: number; now: string };
  calls: number;
  /** The oldest calls the journal dropped. */
  dropped: number;
  task?: { id: string; seed: number; title: string; requests: readonly string[] } | undefined;
  score?: SessionScore | undefined;
  entries: readonly JournalEntry[];
  diff: Readonly<Record<string, readonly RecordDiff[]>>;
  answers: readonly SubmittedAnswer[];
  /** While a run is live: reload the page every this many seconds (absent: the page stays as it is). */
  refreshSeconds?: number | undefined;
}

function header(view: SessionView): Html {
  const { task } = view;
  const taskRows = task
    ? html`<dt>task</dt><dd data-task="${task.id}"><b>${task.id}</b> ${task.title} <span class="seed">(seed ${String(task.seed)})</span></dd>
${task.requests.map((text, index) => html`<dt>${index === 0 ? 'request' : `follow-up ${index}`}</dt><dd class="request">${text}</dd>`)}`
    : html`<dt>task</dt><dd>none</dd>`;
  return html`<header><h1>Session <code>${view.id}</code></h1><dl>
${taskRows}
<dt>seed</dt><dd><code>${view.seed}</code></dd>
<dt>clock</dt><dd>from <time datetime="${view.clock.start}">${view.clock.start}</time>, ${view.clock.step_ms} ms a call; now <time datetime="${
    view.clock.now
  }">${view.clock.now}</time></dd>
<dt>calls</dt><dd>${view.calls}${
    view.refreshSeconds === undefined ? '' : html` <small class="live">live: this page reloads every ${view.refreshSeconds} s while calls come</small>`
  }</dd>
</dl></header>`;
}

/** The whole page. */
export function renderPage(view: SessionView): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
${view.refreshSeconds === undefined ? '' : html`<meta http-equiv="refresh" content="${view.refreshSeconds}">`}
<title>Session ${view.id}${view.task ? ` · ${view.task.id}` : ''}</title>
<style>${new Html(STYLE)}</style></head>
<body>
${header(view)}
<main>
${view.score ? scoreSection(view.score) : ''}
${timelineSection(view.entries, view.dropped, view.score)}
${diffSection(view.diff)}
${answersSection(view.answers)}
</main>
</body></html>
`.text;
}
