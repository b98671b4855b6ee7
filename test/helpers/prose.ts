// What a sentence of documentation must not look like once a hazard has cut words out of it: doubled or
// stray spaces, punctuation left dangling, a sentence that starts in lower case (unless with an identifier),
// or a noun or two left of a sentence ("bags.").

/** The sentences of a text (an abbreviation such as "e.g." ends none). */
const sentencesOf = (text: string): string[] => text.split(/(?<=[.!?])(?<!\b(?:e\.g|i\.e|etc)\.)\s+/).filter((s) => s !== '');

/** A word that is code, not prose: snake_case, with digits, quoted or in backticks. */
const codeWord = (word: string) => /[_\d`'"]/.test(word);

/**
 * What is wrong with the prose of `text`, in words; empty when nothing is. With the text it was cut from,
 * a sentence of one or two words that the original does not have is a fragment the cut left.
 */
export function proseFlaws(text: string, original = ''): string[] {
  const flaws: string[] = [];
  const written = new Set(sentencesOf(original));
  if (/ {2,}|^\s|\s$/.test(text)) flaws.push('doubled or stray spaces');
  if (/\s[.,;:)]/.test(text)) flaws.push('a space before punctuation');
  if (/\(\s*\)|[,;:(]\s*[.,;:)]|^[.,;:]/.test(text)) flaws.push('dangling punctuation');
  for (const sentence of sentencesOf(text)) {
    const words = sentence.split(/\s+/);
    if (/^[a-z]/.test(sentence) && !codeWord(words[0]!)) flaws.push(`a sentence starts in lower case: "${sentence}"`);
    if (words.length <= 2 && !words.some(codeWord) && !written.has(sentence)) flaws.push(`a sentence is only a noun: "${sentence}"`);
  }
  return flaws;
}
