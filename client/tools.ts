import type { FromSchema, JSONSchema } from 'json-schema-to-ts';
import type { Schemas } from './schemas/index.js';

// Argument and result types of every tool, derived from the committed JSON Schemas (client/schemas/).

export type DomainName = keyof Schemas;
export type ToolName<D extends DomainName> = keyof Schemas[D] & string;

type Declared<D extends DomainName, T extends ToolName<D>> = Schemas[D][T] extends { input: infer I extends JSONSchema; output: infer O extends JSONSchema }
  ? { input: I; output: O }
  : never;

/** What a tool takes, as its input schema says. */
export type ToolArgs<D extends DomainName, T extends ToolName<D>> = FromSchema<Declared<D, T>['input'], { keepDefaultedPropertiesOptional: true }>;
/** What a tool answers on success, as its output schema says. */
export type ToolResult<D extends DomainName, T extends ToolName<D>> = FromSchema<Declared<D, T>['output']>;

/** The arguments of a call: optional when the tool requires none. */
export type ArgsParameter<D extends DomainName, T extends ToolName<D>> = object extends ToolArgs<D, T> ? [args?: ToolArgs<D, T>] : [args: ToolArgs<D, T>];

/** One method per tool of a domain: `client.retail.get_order_details({ order_id })`. */
export type DomainTools<D extends DomainName> = {
  readonly [T in ToolName<D>]: (...args: ArgsParameter<D, T>) => Promise<ToolResult<D, T>>;
};
