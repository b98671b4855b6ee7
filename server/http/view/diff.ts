import type { RecordDiff } from '../../core/data/domain-state.js';
import { compact, type Html, html } from './html.js';

// The state diff: the records each domain changed, with the fields that differ, before → after.

/** The value at a dotted path of `changedPaths`, where a key may itself hold dots. */
export function valueAt(value: unknown, path: string): unknown {
  if (path === '(root)') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Object.hasOwn(value, path)) return (value as Record<string, unknown>)[path];
  for (let dot = path.indexOf('.'); dot >= 0; dot = path.indexOf('.', dot + 1)) {
    const key = path.slice(0, dot);
    if (Object.hasOwn(value, key)) return valueAt((value as Record<string, unknown>)[key], path.slice(dot + 1));
  }
  return undefined;
}

function changes(record: RecordDiff): Html {
  if (record.op === 'insert') return html`<span class="after">${compact(record.after)}</span>`;
  if (record.op === 'delete') return html`<span class="before">${compact(record.before)}</span>`;
  return html`<ul class="fields">${(record.fields ?? []).map((field) => {
    const before = html`<span class="before">${compact(valueAt(record.before, field))}</span>`;
    const after = html`<span class="after">${compact(valueAt(record.after, field))}</span>`;
    return html`<li data-field="${field}"><code>${field}</code>: ${before} → ${after}</li>`;
  })}</ul>`;
}

function row(domain: string, record: RecordDiff): Html {
  const cells = html`<td>${domain}</td><td>${record.table}</td><td><code>${record.id}</code></td><td class="op op-${record.op}">${record.op}</td>`;
  return html`<tr data-domain="${domain}" data-record="${record.table}/${record.id}" data-op="${record.op}">${cells}<td>${changes(record)}</td></tr>`;
}

/** The records changed, by domain; domains that changed nothing are left out. */
export function diffSection(diff: Readonly<Record<string, readonly RecordDiff[]>>): Html {
  const rows = Object.entries(diff).flatMap(([domain, records]) => records.map((record) => row(domain, record)));
  const body =
    rows.length === 0
      ? html`<p class="empty">No record changed.</p>`
      : html`<table><thead><tr><th>domain</th><th>table</th><th>id</th><th>op</th><th>changes</th></tr></thead><tbody>${rows}</tbody></table>`;
  return html`<section id="diff"><h2>State diff <small>${rows.length} record(s) changed</small></h2>${body}</section>`;
}
