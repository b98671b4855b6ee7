import type { z } from 'zod';
import { type JsonSchema, jsonSchemaOf } from './json-schema.js';
import { acceptsNull } from './strict-schema.js';

/**
 * Where a value may hold nulls that mean "absent": the optional properties of an object whose own
 * schema does not take null (those a strict schema made nullable), and the values below.
 */
interface Plan {
  readonly absentIfNull: readonly string[];
  readonly properties: readonly (readonly [string, Plan])[];
  readonly items: Plan | undefined;
  readonly branches: readonly Plan[];
}

/**
 * A function that removes, at every depth, the members whose null stands for an optional argument
 * left out (as a strict client sends it). A null where the schema takes null keeps its meaning; a
 * null where nothing allows it stays, for validation to refuse. Returns its argument itself when
 * there is nothing to remove, so a call without nulls costs a few key lookups.
 */
export function optionalNullsRemover(schema: JsonSchema): (value: unknown) => unknown {
  const plan = planOf(schema);
  return plan ? (value) => apply(plan, value) : (value) => value;
}

const removers = new WeakMap<z.ZodType, (value: unknown) => unknown>();

/** Arguments for a tool's input schema without the nulls that stand for absent optional arguments. */
export function withoutOptionalNulls(input: z.ZodType, args: unknown): unknown {
  let remove = removers.get(input);
  if (!remove) {
    remove = optionalNullsRemover(jsonSchemaOf(input, 'input'));
    removers.set(input, remove);
  }
  return remove(args);
}

function planOf(schema: JsonSchema): Plan | undefined {
  const required = new Set((schema['required'] ?? []) as string[]);
  const declared = Object.entries((schema['properties'] ?? {}) as Record<string, JsonSchema>);
  const absentIfNull = declared.filter(([name, property]) => !required.has(name) && !acceptsNull(property)).map(([name]) => name);
  const properties = declared.flatMap(([name, property]) => {
    const below = planOf(property);
    return below ? [[name, below] as const] : [];
  });
  const items = schema['items'] && typeof schema['items'] === 'object' ? planOf(schema['items'] as JsonSchema) : undefined;
  const branches = ((schema['anyOf'] ?? []) as JsonSchema[]).flatMap((branch) => planOf(branch) ?? []);
  if (absentIfNull.length === 0 && properties.length === 0 && !items && branches.length === 0) return undefined;
  return { absentIfNull, properties, items, branches };
}

function apply(plan: Plan, value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  let out: unknown = value;
  if (Array.isArray(value)) {
    if (plan.items) out = mapChanged(value, plan.items);
  } else {
    const record = value as Record<string, unknown>;
    let copy: Record<string, unknown> | undefined;
    for (const name of plan.absentIfNull) {
      if (Object.hasOwn(record, name) && record[name] === null) {
        copy ??= { ...record };
        delete copy[name];
      }
    }
    for (const [name, below] of plan.properties) {
      if (!Object.hasOwn(record, name)) continue;
      const inner = apply(below, record[name]);
      if (inner !== record[name]) {
        copy ??= { ...record };
        copy[name] = inner;
      }
    }
    out = copy ?? record;
  }
  for (const branch of plan.branches) out = apply(branch, out);
  return out;
}

function mapChanged(values: readonly unknown[], plan: Plan): readonly unknown[] {
  let copy: unknown[] | undefined;
  values.forEach((item, i) => {
    const inner = apply(plan, item);
    if (inner !== item) {
      copy ??= [...values];
      copy[i] = inner;
    }
  });
  return copy ?? values;
}
