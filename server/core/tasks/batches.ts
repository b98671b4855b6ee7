import { randomUUID } from 'node:crypto';
import { passHatK } from '../../../scoring/pass-k.js';
import { problemError } from '../problem.js';
import type { SessionStore } from '../sessions/store.js';
import { scoreSession } from './judge.js';

/** N sessions of one task with distinct seeds: a reward source for training, and pass^k over the seeds. */
export interface Batch {
  id: string;
  task: string;
  sessions: { id: string; seed: number }[];
}

/** Most batches remembered; the oldest is forgotten first (its sessions live on until they expire). */
export const MAX_BATCHES = 256;

export class Batches {
  private readonly batches = new Map<string, Batch>();

  newId(): string {
    return `batch-${randomUUID().slice(0, 8)}`;
  }

  add(task: string, sessions: { id: string; seed: number }[], id: string): Batch {
    if (this.batches.has(id)) throw problemError(409, 'batch_exists', `Batch '${id}' already exists; choose another id.`, { field: 'id' });
    const batch = { id, task, sessions };
    this.batches.set(id, batch);
    if (this.batches.size > MAX_BATCHES) this.batches.delete(this.batches.keys().next().value!);
    return batch;
  }

  /** The batches remembered, oldest first. */
  list(): Batch[] {
    return [...this.batches.values()];
  }

  require(id: string): Batch {
    const batch = this.batches.get(id);
    if (!batch) throw problemError(404, 'batch_not_found', `No batch '${id}' (at most ${MAX_BATCHES} are remembered). Create one with POST /batches.`);
    return batch;
  }
}

/** Where a batch stands: each session's verdict once it has its answers, and pass^k over the scored ones. */
export function batchReport(batch: Batch, sessions: SessionStore) {
  const rows = batch.sessions.map(({ id, seed }) => {
    const session = sessions.get(id);
    if (!session?.instance) return { id, seed, status: 'expired' as const, success: null };
    if (session.answers.length < session.instance.turns.length) return { id, seed, status: 'running' as const, success: null };
    return { id, seed, status: 'scored' as const, success: scoreSession(session).success };
  });
  const scored = rows.filter((row) => row.status === 'scored').map((row) => row.success === true);
  return {
    id: batch.id,
    task: batch.task,
    sessions: rows,
    scored: scored.length,
    successes: scored.filter(Boolean).length,
    pass_hat_k: passHatK(scored),
  };
}
