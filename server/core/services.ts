import fp from 'fastify-plugin';
import type { HazardEngineApi } from '../../hazards/engine-api.js';
import type { Registry } from './registry.js';
import type { Session } from './sessions/session.js';
import type { SessionStore } from './sessions/store.js';
import type { TaskBook } from './tasks/book.js';
import { type ToolView, toolViews } from './tool-views.js';

declare module 'fastify' {
  interface FastifyInstance {
    registry: Registry;
    sessions: SessionStore;
    hazards: HazardEngineApi;
    /** Every domain's tasks. */
    tasks: TaskBook;
    /** Every view of the tools (one per domain, then the combined one), for listings and MCP. */
    views: readonly ToolView[];
  }
}

export interface Services {
  registry: Registry;
  sessions: SessionStore;
  hazards: HazardEngineApi;
  tasks: TaskBook;
}

/** The cross-cutting services every route uses, as decorators of the app. */
export const services = fp<Services>(
  async (app, { registry, sessions, hazards, tasks }) => {
    app.decorate('registry', registry);
    app.decorate('sessions', sessions);
    app.decorate('hazards', hazards);
    app.decorate('tasks', tasks);
    const answerTool = (session: Session) => {
      const { instance } = session;
      const tool = instance && tasks.answerTool(instance, session.answers.length);
      return tool && { domain: instance.domain, tool };
    };
    app.decorate('views', toolViews(registry, hazards, answerTool));
  },
  { name: 'services' },
);
