import type { FastifyInstance } from 'fastify';
import {
  consumersJoined,
  createHttpApp,
  type BackgroundConsumer,
  type Logger,
} from '@wayfarer/service-kit';
import type { Pool } from '@wayfarer/service-kit/pg';
import { notificationRoutes } from './routes/notifications';
import type { NotificationsDeps } from './usecases/deps';

export interface NotificationsAppDeps {
  logger: Logger;
  pool: Pool;
  /** What the use cases work with (stores, clock). */
  deps: NotificationsDeps;
  /** Checks the gateway's identity proof (service-kit `loadIdentityProofSecret`). */
  identityProofSecret: Buffer;
  /**
   * The consumers every notification comes from: `/readyz` fails until each has joined its
   * group; absent in tests of the app alone.
   */
  consumers?: readonly Pick<BackgroundConsumer, 'groupId' | 'joined'>[];
}

/**
 * The largest body of `POST /api/notifications/read`: 100 UUIDs in JSON are about 4 KiB (the
 * gateway's cap for JSON routes is larger).
 */
const BODY_LIMIT = 16 * 1024;

/** notifications' HTTP app (not listening): what main.ts runs and tests inject into. */
export function buildApp(deps: NotificationsAppDeps): FastifyInstance {
  const app = createHttpApp({
    name: 'notifications',
    logger: deps.logger,
    identityProofSecret: deps.identityProofSecret,
    bodyLimit: BODY_LIMIT,
    // the routes need only PostgreSQL (the live push is best effort: its Redis is not a reason
    // to take the service out of rotation); ready once its consumers joined their groups
    readiness: {
      postgres: () => deps.pool.query('SELECT 1'),
      ...(deps.consumers ? { consumers: consumersJoined(deps.consumers) } : {}),
    },
  });
  notificationRoutes({ app, deps: deps.deps });
  return app;
}
