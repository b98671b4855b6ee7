// The few Python semantics OpenEnv's clients lean on when they read an answer, reproduced so that a value
// Python would trip over trips the emulation the same way: dict.get, the `in` test, truthiness, iteration,
// and the exceptions those raise.

/** A Python exception as the client would raise it: its type name and its message (str(exc)). */
export class PythonError extends Error {
  constructor(
    readonly pyType:
      | 'RuntimeError'
      | 'TypeError'
      | 'AttributeError'
      | 'ValidationError'
      | 'ConnectionError'
      | 'ConnectionClosed'
      | 'TimeoutError'
      | 'JSONDecodeError'
      | 'HTTPStatusError',
    message: string,
  ) {
    super(message);
    this.name = pyType;
  }
}

export type PyDict = Record<string, unknown>;

/** Python's name for a JSON value's type, as its error messages print it. */
export function typeName(value: unknown): string {
  if (value === null || value === undefined) return 'NoneType';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'string') return 'str';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  return 'dict';
}

export const isDict = (value: unknown): value is PyDict => typeName(value) === 'dict';

/** `d.get(key, default)`: the member when present (even null: Python's None), else the default; AttributeError off a dict. */
export function get(d: unknown, key: string, fallback: unknown = null): unknown {
  if (!isDict(d)) throw new PythonError('AttributeError', `'${typeName(d)}' object has no attribute 'get'`);
  return Object.hasOwn(d, key) ? d[key] : fallback;
}

/** `key in d` on a dict (a member present, whatever its value); TypeError on None. */
export function has(d: unknown, key: string): boolean {
  if (d === null || d === undefined) throw new PythonError('TypeError', "argument of type 'NoneType' is not iterable");
  if (typeof d === 'string') return d.includes(key);
  if (Array.isArray(d)) return d.includes(key);
  if (!isDict(d)) throw new PythonError('TypeError', `argument of type '${typeName(d)}' is not iterable`);
  return Object.hasOwn(d, key);
}

/** `bool(value)`: None, False, 0, "", [] and {} are false. */
export function truthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isDict(value)) return Object.keys(value).length > 0;
  return true;
}

/** `for item in value`: a list's items, a dict's keys, a string's characters; TypeError on None and numbers. */
export function iterate(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return [...value];
  if (isDict(value)) return Object.keys(value);
  throw new PythonError('TypeError', `'${typeName(value)}' object is not iterable`);
}

/** `json.loads(text)`. */
export function loads(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new PythonError('JSONDecodeError', (error as Error).message);
  }
}

/** The exception a client call raised (a failed test when it raised none, or something that is no Python exception). */
export async function raisedBy(call: Promise<unknown>): Promise<PythonError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof PythonError) return error;
    throw error;
  }
  throw new Error('expected the client to raise');
}
