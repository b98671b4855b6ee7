const texts = new WeakMap<object, string>();

/**
 * A value as JSON text. A frozen object is made once and reused: records are frozen whole (deepFreeze) and
 * never change, so a read of an unchanged record costs a lookup instead of a serialization.
 */
export function jsonText(value: unknown): string {
  if (typeof value !== 'object' || value === null || !Object.isFrozen(value)) return JSON.stringify(value) ?? 'null';
  let text = texts.get(value);
  if (text === undefined) {
    text = JSON.stringify(value);
    texts.set(value, text);
  }
  return text;
}
