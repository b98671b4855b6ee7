import fp from 'fastify-plugin';
import { type PersistenceOptions, SessionPersistence } from './persistence.js';

export interface LifecycleOptions {
  persistence: PersistenceOptions | undefined;
  ttlMs: number;
}

/** Expires idle sessions while the server runs; with a data folder, reads them back and saves them. */
export const sessionLifecycle = fp<LifecycleOptions>(
  async (app, { persistence, ttlMs }) => {
    if (persistence) {
      const saved = new SessionPersistence(persistence, app.sessions, app.log);
      const kept = await saved.open();
      const guarantee = persistence.durability === 'fsync' ? 'on the disk (fdatasync)' : 'handed to the OS';
      app.log.info(`sessions kept in ${persistence.dir}: ${kept}, each read back on first use or in the background; a write is acknowledged once ${guarantee}`);
      app.addHook('onClose', () => saved.close());
    }
    const sweeper = setInterval(() => app.sessions.sweep(), Math.min(ttlMs, 60_000));
    sweeper.unref();
    app.addHook('onClose', async () => clearInterval(sweeper));
  },
  { name: 'session-lifecycle', dependencies: ['services'] },
);
