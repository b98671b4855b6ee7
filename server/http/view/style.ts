// The page's only style sheet, inline (the page loads nothing else).

export const STYLE = `
:root { color-scheme: light; --ok: #1b7f3b; --bad: #b3261e; --warn: #8a5a00; --line: #d9dce1; --muted: #5f6670; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1280px; padding: 1.5rem; color: #1d2024; overflow-wrap: anywhere; }
header h1 { font-size: 1.4rem; margin: 0 0 .5rem; }
header dl { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
header dt { color: var(--muted); }
header dd { margin: 0; }
section { margin-top: 1.5rem; border-top: 1px solid var(--line); padding-top: .5rem; }
h2 { font-size: 1.15rem; margin: .3rem 0 .6rem; }
h2 small { color: var(--muted); font-weight: normal; font-size: .85rem; margin-left: .5rem; }
h3 { font-size: 1rem; margin: 1rem 0 .4rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
th { background: #f3f4f6; font-weight: 600; overflow-wrap: normal; }
td.op { overflow-wrap: normal; }
code, pre { font: 12px/1.4 ui-monospace, monospace; }
td.args { min-width: 10rem; max-width: 22rem; }
td.status { min-width: 12rem; max-width: 32rem; } td.status .code { font-weight: 600; }
td.seq, td.at { white-space: nowrap; }
small { color: var(--muted); }
.verdict { font-size: 2rem; font-weight: 700; margin: .2rem 0 .6rem; }
#score.success .verdict { color: var(--ok); }
#score.failure .verdict { color: var(--bad); }
#score.success { border-left: 6px solid var(--ok); padding-left: 1rem; }
#score.failure { border-left: 6px solid var(--bad); padding-left: 1rem; }
.reasons li { margin: .2rem 0; }
tr.failed td.status { color: var(--bad); }
#timeline tr.failed { background: #fdf0ef; }
#timeline tr.failed td.seq { box-shadow: inset 4px 0 var(--bad); }
.verdicts tr.failed td { color: var(--bad); }
.badge { display: inline-block; border-radius: 3px; padding: 0 .4rem; margin: 0 .25rem .2rem 0; font-size: 12px; border: 1px solid; }
.badge.hazard { background: #fff4e0; border-color: #e0a030; color: var(--warn); cursor: help; }
.badge.recovered { background: #e6f4ea; border-color: var(--ok); color: var(--ok); }
.badge.trap { background: #fce8e6; border-color: var(--bad); color: var(--bad); font-weight: 600; }
.badge.write { background: #e8f0fe; border-color: #4a77d4; color: #1a4fa0; }
.badge.replay { background: #f3f4f6; border-color: var(--muted); color: var(--muted); }
.fields { margin: 0; padding-left: 1rem; }
.before { color: var(--bad); text-decoration: line-through; }
.after { color: var(--ok); }
.op-insert { color: var(--ok); } .op-delete { color: var(--bad); } .op-update { color: #1a4fa0; }
#answers pre { white-space: pre-wrap; background: #f7f7f9; border: 1px solid var(--line); padding: .6rem; margin: .2rem 0; }
.empty, .note { color: var(--muted); font-style: italic; }
/* A narrow window (800 px): each call of the timeline is a block of its own, every field under the other. */
@media (max-width: 900px) {
  body { padding: 1rem; }
  #timeline thead { display: none; }
  #timeline table, #timeline tbody, #timeline tr, #timeline td { display: block; }
  #timeline td { border: 0; padding: .1rem .5rem; max-width: none; min-width: 0; }
  #timeline tr { border-bottom: 1px solid var(--line); padding: .3rem 0; }
  td.args, td.status { min-width: 0; }
}
`;
