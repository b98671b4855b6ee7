import type { JournalEntry } from '../../server/core/sessions/journal.js';

/** A journal entry for tests that build a session's record by hand: a successful call, the given fields over it. */
export const journalEntry = (seq: number, fields: Partial<JournalEntry> = {}): JournalEntry => ({
  seq,
  at: Date.UTC(2024, 4, 15, 12, 0, seq),
  domain: 'shop',
  tool: 'tool',
  call: seq,
  args: {},
  status: 200,
  result: {},
  problem: undefined,
  changes: [],
  hazards: [],
  duration_ms: 1,
  ...fields,
});
