/** Names every plain object inherits: a client's key must never find them. */
export const INHERITED = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'] as const;

/**
 * The rule for an id-like field: a string (or each string of a list) whose name is `id`, ends in `_id`,
 * `_ids` or `date`, or names a record or an entry of one the tools look up: flight_number, cabin, seat,
 * tag, airport, endpoint(s). Left out: filters compared by equality and never used as keys (origin/destination of the
 * flight searches, query, category, country, region), names, addresses, emails and free text.
 */
const KEY_FIELDS = new Set(['flight_number', 'cabin', 'seat', 'tag', 'airport', 'endpoint', 'endpoints']);
export const isIdLike = (name: string): boolean => name === 'id' || /_ids?$/.test(name) || /(^|_)date$/.test(name) || KEY_FIELDS.has(name);
