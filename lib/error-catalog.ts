// Error catalogs: every code an answer may carry, with its HTTP status and what it means, declared once
// per domain (domains/<domain>/errors.ts), for the server's own refusals (domains/shared-errors.ts) and for
// the hazards (hazards/errors.ts). The documents (OpenAPI, docs/errors.md) are generated from them.

/** One code: the status it answers with (several when the same reason arises as more than one kind of refusal). */
export interface ErrorEntry<Status extends number = number> {
  readonly status: Status | readonly Status[];
  /** One line a developer or an agent can act on: what happened, and what to do about it. */
  readonly meaning: string;
}

export type CatalogEntry<Code extends string = string, Status extends number = number> = ErrorEntry<Status> & { readonly code: Code };

export type Catalog<T extends Record<string, ErrorEntry>> = { readonly [Code in keyof T & string]: T[Code] & { readonly code: Code } };

/** A catalog from its entries, each given its own code. */
export function defineErrors<const T extends Record<string, ErrorEntry>>(entries: T): Catalog<T> {
  return Object.freeze(Object.fromEntries(Object.entries(entries).map(([code, entry]) => [code, Object.freeze({ code, ...entry })]))) as Catalog<T>;
}

/** The entries of `catalog` named by `codes`: how a tool declares the codes it may answer with. */
export function codesOf<T extends Record<string, CatalogEntry>, const Code extends keyof T & string>(catalog: T, ...codes: Code[]): T[Code][] {
  return codes.map((code) => catalog[code]!);
}

/** The statuses a code answers with. */
export const statusesOf = (entry: ErrorEntry): readonly number[] => (typeof entry.status === 'number' ? [entry.status] : entry.status);

/** Every entry of a catalog, in its order. */
export const entriesOf = (catalog: Record<string, CatalogEntry>): CatalogEntry[] => Object.values(catalog);
