import type { Landing } from '../landing-schema.js';
import { Html, html } from './html.js';
import { STYLE } from './style.js';

// The landing page (GET / in a browser): live sessions, tasks, docs and reports, as links.

const link = (href: string, text: string | Html): Html => html`<a href="${href}">${text}</a>`;

function sessionsSection(sessions: Landing['sessions']): Html {
  const rows = sessions.map(
    (s) =>
      html`<tr data-session="${s.id}"><td>${link(s.view, html`<code>${s.id}</code>`)}</td><td>${s.task ?? ''}</td><td>${s.calls}</td>
<td>${link(s.journal, 'journal')}${s.score ? html` · ${link(s.score, 'score')}` : ''}</td></tr>`,
  );
  const body =
    sessions.length === 0
      ? html`<p class="empty">No live session. Create one with POST /sessions, or call a tool under /s/{id}/.</p>`
      : html`<table><thead><tr><th>session</th><th>task</th><th>calls</th><th>more</th></tr></thead><tbody>${rows}</tbody></table>`;
  return html`<section id="sessions"><h2>Sessions <small>${sessions.length} live</small></h2>${body}</section>`;
}

function tasksSection(tasks: Landing['tasks']): Html {
  const items = Object.entries(tasks.by_domain).map(([domain, { count, list }]) => html`<li>${link(list, domain)}: ${count}</li>`);
  const all = link(tasks.list, 'All tasks');
  return html`<section id="tasks"><h2>Tasks <small>${tasks.count}</small></h2><p>${all} (JSON), by domain:</p><ul>${items}</ul></section>`;
}

function docsSection(docs: Landing['docs']): Html {
  const domains = Object.entries(docs.domains).map(([domain, href]) => html` · ${link(href, domain)}`);
  return html`<section id="docs"><h2>Docs</h2><ul>
<li>${link(docs.swagger_ui, 'Swagger UI')}: every route, with "Try it out"</li>
<li>OpenAPI: ${link(docs.openapi, 'combined')}${domains}</li>
<li>${link(docs.health, 'health')} · ${link(docs.hazards, 'hazards')}</li>
</ul></section>`;
}

function reportsSection(landing: Landing): Html {
  const scores = landing.sessions.filter((s) => s.score !== undefined).map((s) => html`<li>${link(s.score!, html`<code>${s.id}</code>`)} (${s.task})</li>`);
  const batches = landing.reports.batches.map((b) => html`<li>${link(b.report, html`<code>${b.id}</code>`)}: ${b.task}, ${b.sessions} sessions</li>`);
  const list = [...scores, ...batches];
  const body = list.length === 0 ? html`<p class="empty">No report yet: task sessions and batches (POST /batches) have one.</p>` : html`<ul>${list}</ul>`;
  return html`<section id="reports"><h2>Reports</h2>${body}</section>`;
}

/** The whole page. */
export function renderLanding(landing: Landing): string {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>wildtools ${landing.version}</title>
<style>${new Html(STYLE)}</style></head>
<body>
<header><h1>wildtools <small>${landing.version}</small></h1></header>
<main>
${sessionsSection(landing.sessions)}
${tasksSection(landing.tasks)}
${docsSection(landing.docs)}
${reportsSection(landing)}
</main>
</body></html>
`.text;
}
