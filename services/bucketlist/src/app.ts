import type { FastifyInstance } from 'fastify';
import { DEFAULT_BODY_MAX_BYTES } from '@wayfarer/contracts';
import { createHttpApp, type Logger, type OutboxRelay } from '@wayfarer/service-kit';
import type { Pool } from '@wayfarer/service-kit/pg';
import { bucketListRoutes } from './routes/bucketlist';
import { exportRoutes } from './routes/export';
import { itineraryRoutes } from './routes/itinerary';
import type { ItemsStore } from './store/items';
import type { BucketListContext } from './routes/context';

export interface BucketListDeps {
  logger: Logger;
  pool: Pool;
  /** The items store (also used by the consumers). */
  items: ItemsStore;
  /** Checks the gateway's identity proof (service-kit `loadIdentityProofSecret`). */
  identityProofSecret: Buffer;
  /** Kicked after a commit that enqueued events; optional (the relay also polls). */
  relay?: Pick<OutboxRelay, 'kick'>;
  /** The clock of manual visits (default the real one). */
  now?: () => Date;
}

/** The bucketlist service's HTTP app (not listening): what main.ts runs and tests inject into. */
export function buildApp(deps: BucketListDeps): FastifyInstance {
  const app = createHttpApp({
    name: 'bucketlist',
    logger: deps.logger,
    identityProofSecret: deps.identityProofSecret,
    // the gateway's cap for these routes: an itinerary at its limits fits (README)
    bodyLimit: DEFAULT_BODY_MAX_BYTES,
    readiness: { postgres: () => deps.pool.query('SELECT 1') },
    // ids longer than the router's default 100 get our 404 instead of a 414
    fastify: { routerOptions: { maxParamLength: 200 } },
  });
  const ctx: BucketListContext = {
    app,
    deps: { pool: deps.pool, items: deps.items, relay: deps.relay },
    now: deps.now ?? (() => new Date()),
  };
  bucketListRoutes(ctx);
  itineraryRoutes(ctx);
  exportRoutes(ctx);
  return app;
}
