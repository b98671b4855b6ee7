import t from 'tap';
import type { z } from 'zod';
import type {
  HazardEvent as ClientHazardEvent,
  HazardSpec as ClientHazardSpec,
  JournalEntry as ClientJournalEntry,
  BatchOptions as ClientBatchOptions,
  BatchReport as ClientBatchReport,
  PublicTask as ClientPublicTask,
  Score as ClientScore,
  SessionOptions as ClientSessionOptions,
  SessionScore as ClientSessionScore,
} from '../../client/types.js';
import type { CreateBatch } from '../../server/http/batches.js';
import type { batchReport } from '../../server/core/tasks/batches.js';
import type { SessionScore } from '../../server/core/tasks/judge.js';
import type { CreateSession } from '../../server/core/tasks/setup.js';
import type { Score } from '../../scoring/score.js';
import type { PublicTask } from '../../scoring/task.js';
import { listingFormats, strictFormats } from '../../client/schemas/index.js';
import type { HazardEvent } from '../../hazards/event.js';
import type { HazardSpec } from '../../hazards/spec.js';
import { LISTING_FORMATS, STRICT_FORMATS } from '../../server/core/listings.js';
import type { publicEntry } from '../../server/core/sessions/journal.js';
import type { SessionOptions } from '../../server/core/sessions/session.js';

// The client states the server's wire shapes without importing the server. These checks fail to compile
// when a shape the server sends no longer fits the client's type, or one the client sends no longer fits
// what the server accepts.

type Fits<A, B> = [A] extends [B] ? true : false;
const sent: [Fits<HazardEvent, ClientHazardEvent>, Fits<ReturnType<typeof publicEntry>, ClientJournalEntry>] = [true, true];
const accepted: [Fits<ClientHazardSpec, z.input<typeof HazardSpec>>, Fits<ClientSessionOptions, z.input<typeof CreateSession>>] = [true, true];
const scored: [
  Fits<Score, ClientScore>,
  Fits<SessionScore, ClientSessionScore>,
  Fits<PublicTask, ClientPublicTask>,
  Fits<ReturnType<typeof batchReport>, ClientBatchReport>,
] = [true, true, true, true];
const batches: Fits<ClientBatchOptions, z.input<typeof CreateBatch>> = true;
const sessions: Fits<Omit<ClientSessionOptions, 'kinds' | 'hazard_rate'>, z.input<typeof SessionOptions>> = true;

t.same([sent, accepted, scored, batches, sessions], [[true, true], [true, true], [true, true, true, true], true, true]);
t.same(listingFormats, LISTING_FORMATS, "the client's listing formats are the server's");
t.same(strictFormats, STRICT_FORMATS, 'and so are the strict ones');
