import type { FastifyInstance } from 'fastify';
import type { Db } from 'mongodb';
import {
  createHttpApp,
  installErrorMap,
  type Logger,
  type OutboxRelay,
} from '@wayfarer/service-kit';
import { mongoPing } from '@wayfarer/service-kit/mongo';
import { exportRoutes } from './routes/export';
import { httpErrorOf } from './routes/errors';
import { journalRoutes } from './routes/journal';
import type { JournalStores } from './store';

export interface JournalDeps {
  logger: Logger;
  db: Db;
  /** The stores (`createStores(db)`), also used by the relay and the consumers. */
  stores: JournalStores;
  /** Checks the gateway's identity proof (service-kit `loadIdentityProofSecret`). */
  identityProofSecret: Buffer;
  /** Kicked after a save that enqueued `journal.saved`; optional (the relay also polls). */
  relay?: Pick<OutboxRelay, 'kick'>;
}

/**
 * A journal of 20,000 characters is at most ~120 KB of JSON even fully `\u`-escaped; a longer
 * content below this limit gets the schema's clear 400, anything bigger a 413.
 */
const BODY_LIMIT = 256 * 1024;

/** The journal service's HTTP app (not listening): what main.ts runs and tests inject into. */
export function buildApp(deps: JournalDeps): FastifyInstance {
  const app = createHttpApp({
    name: 'journal',
    logger: deps.logger,
    identityProofSecret: deps.identityProofSecret,
    bodyLimit: BODY_LIMIT,
    readiness: { mongo: mongoPing(deps.db) },
    // ids longer than the router's default 100 get our 400 instead of a 414
    fastify: { routerOptions: { maxParamLength: 200 } },
  });
  // journal's errors are answered as HTTP errors by every route (routes/errors.ts)
  installErrorMap(app, httpErrorOf);
  const ctx = { app, deps: { stores: deps.stores, relay: deps.relay } };
  journalRoutes(ctx);
  exportRoutes(ctx);
  return app;
}
