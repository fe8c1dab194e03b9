import type { FastifyInstance } from 'fastify';
import type { Db } from 'mongodb';
import { createHttpApp, installErrorMap, type Logger } from '@wayfarer/service-kit';
import { mongoPing } from '@wayfarer/service-kit/mongo';
import { conversationRoutes } from './routes/conversation';
import { httpErrorOf } from './routes/errors';
import { exportRoutes } from './routes/export';
import { inboxRoutes } from './routes/conversations';
import type { ChatStores } from './store';
import type { ChatContext } from './routes/context';

export interface ChatDeps {
  logger: Logger;
  db: Db;
  stores: ChatStores;
  /** Checks the gateway's identity proof (service-kit `loadIdentityProofSecret`). */
  identityProofSecret: Buffer;
  /** Extra readiness checks (the adapter's Redis). */
  readiness?: Record<string, () => Promise<unknown>>;
  /** The clock of read marks (default the real one). */
  now?: () => Date;
}

/** chat's HTTP app (not listening); the socket.io server is attached to its `server`. */
export function buildApp(deps: ChatDeps): FastifyInstance {
  const app = createHttpApp({
    name: 'chat',
    logger: deps.logger,
    identityProofSecret: deps.identityProofSecret,
    readiness: { mongo: mongoPing(deps.db), ...deps.readiness },
    fastify: { routerOptions: { maxParamLength: 300 } },
  });
  // chat's refusals are answered as HTTP errors by every route (routes/errors.ts)
  installErrorMap(app, httpErrorOf);
  const ctx: ChatContext = {
    app,
    deps: { stores: deps.stores },
    now: deps.now ?? (() => new Date()),
  };
  conversationRoutes(ctx);
  inboxRoutes(ctx);
  exportRoutes(ctx);
  return app;
}
