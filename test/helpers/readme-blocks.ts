import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

// The code blocks of a markdown document, and a shell block's commands with the output it shows for each.
//
// A block is runnable when the line right above its fence is `<!-- runnable -->` (an HTML comment: GitHub renders
// nothing for it). In a shell block, a `#` comment line directly under a command (no blank line between) shows that
// command's output; `...` in it stands for any text (ids, long bodies). Comment lines after a blank line, or at the
// top, describe what follows and are not compared. In a TypeScript or Python block, a comment that starts with `→`
// after a statement shows a line the program prints: with any, the program's output is those lines, in order.

export const RUNNABLE_MARK = '<!-- runnable -->';

/** The languages whose blocks the README test can run. */
export const RUNNABLE_LANGUAGES = ['sh', 'ts', 'python'] as const;

export interface CodeBlock {
  file: string;
  /** The fence's line, from 1. */
  line: number;
  /** The info string's first word: `sh`, `ts`, `json`, … */
  language: string;
  /** The heading the block sits under. */
  section: string;
  runnable: boolean;
  code: string;
}

/** Every fenced block of a markdown file (paths from the repository root). */
export function codeBlocks(root: string, file: string): CodeBlock[] {
  const lines = readFileSync(`${root}${file}`, 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  let section = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^#{1,6} (.+)$/.exec(line);
    if (heading) section = heading[1]!;
    const fence = /^```(\S*)/.exec(line);
    if (!fence) continue;
    const end = lines.findIndex((candidate, j) => j > i && candidate.startsWith('```'));
    if (end < 0) throw new Error(`${file}:${i + 1}: a code block that never closes`);
    const runnable = lines[i - 1]?.trim() === RUNNABLE_MARK;
    blocks.push({ file, line: i + 1, language: fence[1] ?? '', section, runnable, code: lines.slice(i + 1, end).join('\n') });
    i = end;
  }
  return blocks;
}

export interface ShellCommand {
  /** The command, its continuation lines joined. */
  text: string;
  /** Its line in the document. */
  line: number;
  /** The output the block shows under it, one entry a line; empty when it shows none. */
  shows: string[];
}

/** A shell block's commands, each with the output shown under it. */
export function shellCommands(block: CodeBlock): ShellCommand[] {
  const commands: ShellCommand[] = [];
  let current: ShellCommand | undefined;
  let continued = false;
  for (const [index, raw] of block.code.split('\n').entries()) {
    const line = raw.trimEnd();
    if (continued && current) {
      current.text += `\n${line}`;
      continued = line.endsWith('\\');
    } else if (line.trim() === '') current = undefined;
    else if (line.trimStart().startsWith('#')) current?.shows.push(line.trimStart().replace(/^# ?/, ''));
    else {
      current = { text: line, line: block.line + 1 + index, shows: [] };
      commands.push(current);
      continued = line.endsWith('\\');
    }
  }
  return commands;
}

/**
 * Whether an output is what the block shows: equal as JSON when the shown text parses, else equal text where
 * each `...` of the shown text stands for any text.
 */
export function showsOutput(shown: readonly string[], output: string): boolean {
  const expected = shown.join('\n').trim();
  const actual = output.trim();
  try {
    return isDeepStrictEqual(JSON.parse(expected), JSON.parse(actual));
  } catch {
    const pattern = expected
      .split('...')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[\\s\\S]*');
    return new RegExp(`^${pattern}$`).test(actual);
  }
}

/** The lines a TypeScript or Python block shows its program printing (`// → …`, `# → …`), in order. */
export function printedLines(block: CodeBlock): string[] {
  const marker = block.language === 'python' ? /\s#\s*→\s?(.*)$/ : /\s\/\/\s*→\s?(.*)$/;
  return block.code.split('\n').flatMap((line) => {
    const shown = marker.exec(line);
    return shown ? [shown[1]!.trimEnd()] : [];
  });
}
