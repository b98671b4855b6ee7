import fp from 'fastify-plugin';
import { SessionPersistence } from './persistence.js';

export interface LifecycleOptions {
  persistence: { dir: string; intervalMs: number } | undefined;
  ttlMs: number;
}

/** Expires idle sessions while the server runs; with a data folder, restores and saves them. */
export const sessionLifecycle = fp<LifecycleOptions>(
  async (app, { persistence, ttlMs }) => {
    if (persistence) {
      const saved = new SessionPersistence(persistence.dir, app.sessions, persistence.intervalMs, app.log);
      const restored = await saved.open();
      app.log.info(`sessions kept in ${persistence.dir}: ${restored} restored`);
      app.addHook('onClose', () => saved.close());
    }
    const sweeper = setInterval(() => app.sessions.sweep(), Math.min(ttlMs, 60_000));
    sweeper.unref();
    app.addHook('onClose', async () => clearInterval(sweeper));
  },
  { name: 'session-lifecycle', dependencies: ['services'] },
);
