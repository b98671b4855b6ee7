import type { SubmittedAnswer } from '../../../scoring/score.js';
import { type Html, html } from './html.js';

// The final answers the session recorded, one per turn: the typed answer, and the words for the user.

const answerItem = ({ answer, text }: SubmittedAnswer, index: number) =>
  html`<li data-turn="${index + 1}">${answer === undefined ? '' : html`<pre class="typed">${JSON.stringify(answer, null, 1)}</pre>`}${
    text === undefined ? '' : html`<pre>${text}</pre>`
  }</li>`;

export function answersSection(answers: readonly SubmittedAnswer[]): Html {
  const body = answers.length === 0 ? html`<p class="empty">No answer recorded.</p>` : html`<ol>${answers.map(answerItem)}</ol>`;
  return html`<section id="answers"><h2>Answers</h2>${body}</section>`;
}
