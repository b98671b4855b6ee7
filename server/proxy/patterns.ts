// A rule's pattern is tested on every call's argument with JavaScript's backtracking engine: one that can
// backtrack exponentially blocks the event loop for seconds on a short value. Such patterns are found at load
// by their shape, conservatively (a few harmless patterns are refused too). Inside a repeated group:
// - a variable quantifier that can be followed, in the group or its next round, by a character it matches
//   itself: `(a+)+`, `(a*)*`, `(\w+\s?)+`, `(.*,)+`, `(a?a)+` (while `(-[a-z]+)*` and `(\d+\.)+` are fine);
// - alternatives that can begin with the same character, or be empty: `(a|aa)+`, `(\w|\d)*`, `(a|)+`.

type Node =
  /** One character: a literal, an escape, a class or the dot, as its source. */
  | { type: 'char'; source: string }
  /** An anchor or a word boundary: matches no character. */
  | { type: 'empty' }
  /** A back-reference: whatever its group matched. */
  | { type: 'backref' }
  | { type: 'look'; node: Node }
  | { type: 'group'; branches: Node[][] }
  | { type: 'repeat'; node: Node; min: number; max: number };

/** Any character, as a source. */
const ANY = '[^]';

/** Why `source` can backtrack catastrophically; undefined when its shape is safe, or it is no regex at all. */
export function catastrophicBacktracking(source: string): string | undefined {
  try {
    new RegExp(source);
  } catch {
    return undefined;
  }
  return walk(new Parser(source).parse(), [], false);
}

/** The characters a node can begin with, and whether it can match the empty text. */
interface First {
  chars: string[];
  nullable: boolean;
}

function firstOf(node: Node): First {
  switch (node.type) {
    case 'char':
      return { chars: [node.source], nullable: false };
    case 'empty':
    case 'look':
      return { chars: [], nullable: true };
    case 'backref':
      return { chars: [ANY], nullable: true };
    case 'repeat': {
      const inner = firstOf(node.node);
      return { chars: inner.chars, nullable: inner.nullable || node.min === 0 };
    }
    case 'group': {
      const firsts = node.branches.map(firstOfSequence);
      return { chars: firsts.flatMap((first) => first.chars), nullable: firsts.some((first) => first.nullable) };
    }
  }
}

function firstOfSequence(sequence: readonly Node[]): First {
  const chars: string[] = [];
  for (const item of sequence) {
    const first = firstOf(item);
    chars.push(...first.chars);
    if (!first.nullable) return { chars, nullable: false };
  }
  return { chars, nullable: true };
}

/** What a repeated body's next round can begin with: any character when the body can match nothing. */
function roundStart(node: Node): string[] {
  const first = firstOf(node);
  return first.nullable ? [ANY] : first.chars;
}

/**
 * The first risk in `node`, where `follow` is what can come right after it (in the repeated group it is
 * in, counting that group's next round), and `inLoop` whether it is inside a repeated group at all.
 */
function walk(node: Node, follow: readonly string[], inLoop: boolean): string | undefined {
  switch (node.type) {
    case 'char':
    case 'empty':
    case 'backref':
      return undefined;
    case 'look':
      // A lookaround is atomic: no backtracking into it from outside, only within.
      return walk(node.node, [], false);
    case 'group': {
      if (inLoop && node.branches.length > 1) {
        const overlap = overlappingAlternatives(node.branches);
        if (overlap) return `its alternatives ${overlap} can match the same text`;
      }
      for (const branch of node.branches) {
        const risk = walkSequence(branch, follow, inLoop);
        if (risk) return risk;
      }
      return undefined;
    }
    case 'repeat': {
      const starts = firstOf(node.node).chars;
      if (inLoop && node.min !== node.max && intersect(starts, follow))
        return `${sourceOf(node)} can be followed by a character it matches itself (inside a repeated group)`;
      if (node.max <= 1) return walk(node.node, follow, inLoop);
      const next = roundStart(node.node);
      return walk(node.node, inLoop ? [...next, ...follow] : next, true);
    }
  }
}

function walkSequence(sequence: readonly Node[], follow: readonly string[], inLoop: boolean): string | undefined {
  let after = follow;
  const risks: (string | undefined)[] = [];
  for (let i = sequence.length - 1; i >= 0; i--) {
    const item = sequence[i]!;
    risks.unshift(walk(item, after, inLoop));
    const first = firstOf(item);
    after = first.nullable ? [...first.chars, ...after] : first.chars;
  }
  return risks.find(Boolean);
}

/** Two alternatives that can begin with the same character (an empty one begins with anything), as `a|aa`. */
function overlappingAlternatives(branches: readonly Node[][]): string | undefined {
  const starts = branches.map((branch) => {
    const first = firstOfSequence(branch);
    return first.nullable ? [ANY] : first.chars;
  });
  for (let i = 0; i < starts.length; i++) {
    for (let j = i + 1; j < starts.length; j++) {
      if (intersect(starts[i]!, starts[j]!)) return `${sequenceSource(branches[i]!)}|${sequenceSource(branches[j]!)}`;
    }
  }
  return undefined;
}

/** Characters two sets are compared on: Latin-1, and a sample beyond. */
const PROBES = [...Array.from({ length: 0x100 }, (_, code) => String.fromCharCode(code)), 'ā', 'Ω', 'ж', '中', '\u2028', '\u3000', '\ud83d'];

function intersect(a: readonly string[], b: readonly string[]): boolean {
  if (a.length === 0 || b.length === 0) return false;
  const left = new RegExp(`^(?:${a.join('|')})$`);
  const right = new RegExp(`^(?:${b.join('|')})$`);
  return PROBES.some((probe) => left.test(probe) && right.test(probe));
}

function sourceOf(node: Node): string {
  switch (node.type) {
    case 'char':
      return node.source;
    case 'empty':
    case 'backref':
    case 'look':
      return '';
    case 'group':
      return `(${node.branches.map(sequenceSource).join('|')})`;
    case 'repeat':
      return `${sourceOf(node.node)}${quantifierSource(node.min, node.max)}`;
  }
}

const sequenceSource = (sequence: readonly Node[]) => sequence.map(sourceOf).join('');

function quantifierSource(min: number, max: number): string {
  if (max === Infinity) return min === 0 ? '*' : min === 1 ? '+' : `{${min},}`;
  if (min === 0 && max === 1) return '?';
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

/** A recursive-descent reading of a regex's source, known to be valid (without flags). */
class Parser {
  private at = 0;

  constructor(private readonly source: string) {}

  parse(): Node {
    return this.alternatives();
  }

  private alternatives(): Node {
    const branches: Node[][] = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      branches.push(this.sequence());
    }
    return { type: 'group', branches };
  }

  private sequence(): Node[] {
    const items: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') items.push(this.quantified(this.atom()));
    return items;
  }

  private atom(): Node {
    const start = this.at;
    const c = this.source[this.at++]!;
    if (c === '(') {
      const rest = this.source.slice(this.at);
      const look = /^\?<?[=!]/.exec(rest)?.[0];
      this.at += (look ?? /^\?(?::|<[^>]+>)/.exec(rest)?.[0] ?? '').length;
      const inner = this.alternatives();
      this.at++; // the closing parenthesis
      return look ? { type: 'look', node: inner } : inner;
    }
    if (c === '[') {
      while (this.source[this.at] !== ']') this.at += this.source[this.at] === '\\' ? 2 : 1;
      this.at++;
      return { type: 'char', source: this.source.slice(start, this.at) };
    }
    if (c === '^' || c === '$') return { type: 'empty' };
    if (c === '\\') return this.escape(start);
    return { type: 'char', source: c === '.' || !/[\]{}]/.test(c) ? c : `\\${c}` };
  }

  private escape(start: number): Node {
    const rest = this.source.slice(this.at);
    if (/^[bB]/.test(rest)) {
      this.at++;
      return { type: 'empty' };
    }
    const reference = /^(?:[1-9]\d*|k<[^>]*>)/.exec(rest)?.[0];
    if (reference) {
      this.at += reference.length;
      return { type: 'backref' };
    }
    this.at += /^(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|c[A-Za-z])/.exec(rest)?.[0].length ?? 1;
    return { type: 'char', source: this.source.slice(start, this.at) };
  }

  private quantified(atom: Node): Node {
    const match = /^(?:([*+?])|\{(\d+)(,(\d*))?\})\??/.exec(this.source.slice(this.at));
    if (!match) return atom;
    this.at += match[0].length;
    const [, symbol, low, comma, high] = match;
    if (symbol) return { type: 'repeat', node: atom, min: symbol === '+' ? 1 : 0, max: symbol === '?' ? 1 : Infinity };
    const min = Number(low);
    return { type: 'repeat', node: atom, min, max: comma === undefined ? min : high ? Number(high) : Infinity };
  }
}
