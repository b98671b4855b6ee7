import type { FastifyInstance } from 'fastify';
import { configure } from '../hazard-settings.js';
import { type CreateSession, prepareSession } from '../tasks/setup.js';
import type { Session } from './session.js';

/** A new session from POST /sessions' body (or an OpenEnv reset's): set up by its task, its hazard settings checked, durable before it is answered. */
export async function openSession(app: FastifyInstance, body: CreateSession): Promise<Session> {
  const { options, instance } = await prepareSession(body, app.tasks, () => app.sessions.newId());
  if (options.hazards) configure(() => app.hazards.check(options.hazards));
  const session = app.sessions.create(options, instance);
  await app.sessions.durable();
  return session;
}
