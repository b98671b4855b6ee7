import { z } from 'zod';

// A task's answer is typed: a zod object whose fields say what the agent must report. Each field is built
// by one of these helpers, which also records how it is compared; `ruleOf` reads the rules back as plain
// data for the scorer. Fields built with plain zod get the default rule of their type.

/** How one answer value is compared with the expected one. */
export type AnswerRule =
  /** Equal as JSON: ids, enums, flags, dates, counts. */
  | { readonly type: 'exact' }
  /** Equal ignoring case, accents, surrounding and repeated spaces: names, words. */
  | { readonly type: 'text' }
  /** Equal within an absolute tolerance. */
  | { readonly type: 'number'; readonly tolerance: number }
  /** The same items in any order (each item compared by `item`). */
  | { readonly type: 'set'; readonly item: AnswerRule }
  /** The same items in the same order. */
  | { readonly type: 'list'; readonly item: AnswerRule }
  /** Each field compared by its rule; a field the schema does not name is a difference. */
  | { readonly type: 'object'; readonly fields: Readonly<Record<string, AnswerRule>> }
  /** Null (or absent) on both sides, or `inner`. */
  | { readonly type: 'nullable'; readonly inner: AnswerRule };

const rules = new WeakMap<z.ZodType, AnswerRule>();

function ruled<T extends z.ZodType>(schema: T, rule: AnswerRule): T {
  rules.set(schema, rule);
  return schema;
}

const EXACT: AnswerRule = { type: 'exact' };
const TEXT: AnswerRule = { type: 'text' };

/** Half a cent: amounts of money are equal when they round to the same cent. */
const MONEY_TOLERANCE = 0.005;

/** Answer fields: each a zod schema with its description (what the agent reads) and its comparison. */
export const field = {
  /** An identifier as the tools give it (an order id, a payment method id): compared exactly. */
  id: (description: string) => ruled(z.string().min(1).describe(description), EXACT),
  /** A name or a word: compared without case, accents or extra spaces. */
  text: (description: string) => ruled(z.string().min(1).describe(description), TEXT),
  /** One of a few values: compared exactly. */
  choice: <const V extends readonly [string, ...string[]]>(values: V, description: string) => ruled(z.enum(values).describe(description), EXACT),
  flag: (description: string) => ruled(z.boolean().describe(description), EXACT),
  /** A whole number of things: compared exactly. */
  count: (description: string) => ruled(z.number().int().min(0).describe(description), EXACT),
  /** An amount of money in the currency's units (dollars): equal to the cent. */
  money: (description: string) => ruled(z.number().describe(description), { type: 'number', tolerance: MONEY_TOLERANCE }),
  /** A measured value: equal within `tolerance`. */
  number: (description: string, tolerance: number) => ruled(z.number().describe(description), { type: 'number', tolerance }),
  /** A calendar date, YYYY-MM-DD: compared exactly. */
  date: (description: string) =>
    ruled(
      z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
        .describe(description),
      EXACT,
    ),
  /** A time of day, HH:MM (24-hour): compared exactly. */
  time: (description: string) =>
    ruled(
      z
        .string()
        .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'a time as HH:MM (24-hour)')
        .describe(description),
      EXACT,
    ),
  /** Items in any order. */
  set: <T extends z.ZodType>(item: T, description: string) => ruled(z.array(item).describe(description), { type: 'set', item: ruleOf(item) }),
  /** Items in a meaningful order. */
  list: <T extends z.ZodType>(item: T, description: string) => ruled(z.array(item).describe(description), { type: 'list', item: ruleOf(item) }),
  /** A value, or null when there is none (strict clients must send every field: null says "none"). */
  nullable: <T extends z.ZodType>(inner: T) => ruled(inner.nullable(), { type: 'nullable', inner: ruleOf(inner) }),
};

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
}

/** How an answer schema's values are compared: the rules its fields were built with, else their type's default. */
export function ruleOf(schema: z.ZodType): AnswerRule {
  const known = rules.get(schema);
  if (known) return known;
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case 'object':
      return { type: 'object', fields: Object.fromEntries(Object.entries(def.shape ?? {}).map(([name, child]) => [name, ruleOf(child)])) };
    case 'array':
      return { type: 'set', item: ruleOf(def.element!) };
    case 'optional':
    case 'nullable':
      return { type: 'nullable', inner: ruleOf(def.innerType!) };
    case 'default':
    case 'readonly':
      return ruleOf(def.innerType!);
    case 'string':
      return TEXT;
    case 'number':
      return { type: 'number', tolerance: 0 };
    default:
      return EXACT;
  }
}
