import { type Html, html } from './html.js';

// The final answers the session recorded, one per turn, as the user would read them.

export function answersSection(answers: readonly string[]): Html {
  const body =
    answers.length === 0
      ? html`<p class="empty">No answer recorded.</p>`
      : html`<ol>${answers.map((answer, index) => html`<li data-turn="${index + 1}"><pre>${answer}</pre></li>`)}</ol>`;
  return html`<section id="answers"><h2>Answers</h2>${body}</section>`;
}
