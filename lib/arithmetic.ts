/**
 * Evaluates an arithmetic expression made of numbers, + - * / ** // ( ) and spaces, with
 * Python's precedence (unary minus binds looser than **). Never evaluates code: anything
 * else is an ArithmeticSyntaxError.
 */
export class ArithmeticSyntaxError extends Error {}

type Token = { kind: 'number'; value: number } | { kind: 'op'; value: string };

export function evaluateArithmetic(expression: string): number {
  const tokens = tokenize(expression);
  let position = 0;
  const peek = () => tokens[position];
  const take = () => tokens[position++];
  const isOp = (value: string) => peek()?.kind === 'op' && peek()?.value === value;

  // sum := term (('+' | '-') term)*
  const sum = (): number => {
    let value = term();
    while (isOp('+') || isOp('-')) value = take()!.value === '+' ? value + term() : value - term();
    return value;
  };
  // term := unary (('*' | '/' | '//') unary)*
  const term = (): number => {
    let value = unary();
    while (isOp('*') || isOp('/') || isOp('//')) {
      const op = take()!.value;
      const right = unary();
      if ((op === '/' || op === '//') && right === 0) throw new RangeError('division by zero');
      value = op === '*' ? value * right : op === '/' ? value / right : Math.floor(value / right);
    }
    return value;
  };
  // unary := ('+' | '-') unary | power
  const unary = (): number => {
    if (isOp('-') || isOp('+')) {
      const sign = take()!.value === '-' ? -1 : 1;
      return sign * unary();
    }
    return power();
  };
  // power := atom ('**' unary)?
  const power = (): number => {
    const base = atom();
    if (!isOp('**')) return base;
    take();
    return base ** unary();
  };
  const atom = (): number => {
    const token = take();
    if (token?.kind === 'number') return token.value;
    if (token?.kind === 'op' && token.value === '(') {
      const value = sum();
      if (!isOp(')')) throw new ArithmeticSyntaxError("missing ')'");
      take();
      return value;
    }
    throw new ArithmeticSyntaxError(token ? `unexpected '${token.value}'` : 'unexpected end of expression');
  };

  const value = sum();
  if (position < tokens.length) throw new ArithmeticSyntaxError(`unexpected '${tokens[position]!.value}'`);
  return value;
}

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+\.?\d*|\.\d+)|(\*\*|\/\/|[-+*/()]))/y;
  let index = 0;
  while (index < expression.length) {
    if (/^\s*$/.test(expression.slice(index))) break;
    pattern.lastIndex = index;
    const match = pattern.exec(expression);
    if (!match) throw new ArithmeticSyntaxError(`unexpected '${expression.slice(index).trim()[0]}'`);
    tokens.push(match[1] !== undefined ? { kind: 'number', value: Number(match[1]) } : { kind: 'op', value: match[2]! });
    index = pattern.lastIndex;
  }
  return tokens;
}

/** The text Python's str() gives for a float: '4.0', '0.1', '1e+16'. */
export function pythonFloatString(value: number): string {
  if (Number.isNaN(value)) return 'nan';
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf';
  const magnitude = Math.abs(value);
  if (magnitude !== 0 && (magnitude >= 1e16 || magnitude < 1e-4)) {
    return value.toExponential().replace(/e([+-])(\d)$/, 'e$10$2');
  }
  const text = String(value);
  return text.includes('.') ? text : `${text}.0`;
}
