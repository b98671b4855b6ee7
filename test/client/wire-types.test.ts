import t from 'tap';
import type { z } from 'zod';
import type {
  HazardEvent as ClientHazardEvent,
  HazardSpec as ClientHazardSpec,
  JournalEntry as ClientJournalEntry,
  SessionOptions as ClientSessionOptions,
} from '../../client/types.js';
import { listingFormats, strictFormats } from '../../client/schemas/index.js';
import type { HazardEvent } from '../../hazards/event.js';
import type { HazardSpec } from '../../hazards/spec.js';
import { LISTING_FORMATS, STRICT_FORMATS } from '../../server/listings.js';
import type { publicEntry } from '../../server/sessions/journal.js';
import type { SessionOptions } from '../../server/sessions/session.js';

// The client states the server's wire shapes without importing the server. These checks fail to compile
// when a shape the server sends no longer fits the client's type, or one the client sends no longer fits
// what the server accepts.

type Fits<A, B> = [A] extends [B] ? true : false;
const sent: [Fits<HazardEvent, ClientHazardEvent>, Fits<ReturnType<typeof publicEntry>, ClientJournalEntry>] = [true, true];
const accepted: [Fits<ClientHazardSpec, z.input<typeof HazardSpec>>, Fits<ClientSessionOptions, z.input<typeof SessionOptions>>] = [true, true];

t.same(
  [sent, accepted],
  [
    [true, true],
    [true, true],
  ],
);
t.same(listingFormats, LISTING_FORMATS, "the client's listing formats are the server's");
t.same(strictFormats, STRICT_FORMATS, 'and so are the strict ones');
