import type { FastifyInstance } from 'fastify';
import {
  consumersJoined,
  createHttpApp,
  installErrorMap,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import type { Pool } from '@wayfarer/service-kit/pg';
import { exportRoutes } from './routes/export';
import { feedRoutes } from './routes/feed';
import { friendRoutes } from './routes/friends';
import { searchRoutes } from './routes/search';
import { statsRoutes } from './routes/stats';
import { httpErrorOf } from './routes/errors';
import type { SocialDeps } from './usecases/deps';

export interface SocialAppDeps {
  logger: Logger;
  pool: Pool;
  /** What the use cases work with (stores, caches, fences, relay). */
  deps: SocialDeps;
  /** Checks the gateway's identity proof (service-kit `loadIdentityProofSecret`). */
  identityProofSecret: Buffer;
  /**
   * The users and trips consumers: `/readyz` fails until both have joined their groups (a
   * friend's new trip is read from what they write); absent in tests of the app alone.
   */
  consumers?: readonly Pick<BackgroundConsumer, 'groupId' | 'joined'>[];
}

/** The social service's HTTP app (not listening): what main.ts runs and tests inject into. */
export function buildApp(deps: SocialAppDeps): FastifyInstance {
  const app = createHttpApp({
    name: 'social',
    logger: deps.logger,
    identityProofSecret: deps.identityProofSecret,
    // no route reads a body
    bodyLimit: 1024,
    readiness: {
      postgres: () => deps.pool.query('SELECT 1'),
      ...(deps.consumers ? { consumers: consumersJoined(deps.consumers) } : {}),
    },
    // ids longer than the router's default 100 get our 404 instead of a 414
    fastify: { routerOptions: { maxParamLength: 200 } },
  });
  installErrorMap(app, httpErrorOf);
  const ctx = { app, deps: deps.deps };
  friendRoutes(ctx);
  feedRoutes(ctx);
  searchRoutes(ctx);
  statsRoutes(ctx);
  exportRoutes(ctx);
  return app;
}
