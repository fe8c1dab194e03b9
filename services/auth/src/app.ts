import type { KeyObject } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import {
  AccessFences,
  createHttpApp,
  installErrorMap,
  type Logger,
  type OutboxRelay,
} from '@wayfarer/service-kit';
import type { Pool } from '@wayfarer/service-kit/pg';
import type { ObjectStore, SpoolArea } from '@wayfarer/storage';
import { REGISTER_MULTIPART_LIMITS } from './domain/registration';
import { LOGIN_THROTTLE, type ThrottlePolicy } from './domain/throttle';
import { createSessionIssuer } from './domain/token';
import { accountRoutes } from './routes/account';
import { avatarRoutes } from './routes/avatars';
import { exportRoutes } from './routes/export';
import { loginRoute } from './routes/login';
import { registerRoute } from './routes/register';
import { sessionRoutes } from './routes/session';
import type { AuthContext } from './routes/context';
import { httpErrorOf } from './routes/errors';
import { LoginThrottleStore } from './store/login-throttle';
import { RevocationStore } from './store/revocations';
import { SessionsStore } from './store/sessions';
import { UsersStore } from './store/users';
import { passwordChecker } from './usecases/check-password';

export interface AuthDeps {
  logger: Logger;
  pool: Pool;
  redis: Redis;
  /** Profile pictures: the private `avatars` bucket. */
  avatars: ObjectStore;
  /** Where a registration's picture is spooled while it is checked (a directory per request). */
  spool: SpoolArea;
  /** Ed25519 private key that signs session tokens (service-kit `loadSigningKey`). */
  signingKey: KeyObject;
  /** Checks the gateway's identity proof (service-kit `loadIdentityProofSecret`). */
  identityProofSecret: Buffer;
  /** Kicked after a commit that enqueued events; optional (the relay also polls). */
  relay?: Pick<OutboxRelay, 'kick'>;
  /** Mark the session cookie Secure (behind HTTPS). Default false. */
  cookieSecure?: boolean;
  /** Login throttle limits; default LOGIN_THROTTLE. */
  loginThrottle?: ThrottlePolicy;
  /** How the login slowdown waits; default a real timer (tests may record instead). */
  sleep?: (ms: number) => Promise<void>;
}

/** The auth service's HTTP app (not listening): what main.ts runs and tests inject into. */
export function buildApp(deps: AuthDeps): FastifyInstance {
  const app = createHttpApp({
    name: 'auth',
    logger: deps.logger,
    identityProofSecret: deps.identityProofSecret,
    // JSON bodies (login) are tiny; multipart registration has its own limits.
    bodyLimit: 64 * 1024,
    readiness: {
      postgres: () => deps.pool.query('SELECT 1'),
      redis: () => deps.redis.ping(),
      minio: () => deps.avatars.ping(),
    },
  });
  void app.register(cookie);
  void app.register(multipart, { limits: REGISTER_MULTIPART_LIMITS, throwFileSizeLimit: true });

  const policy = deps.loginThrottle ?? LOGIN_THROTTLE;
  const throttle = new LoginThrottleStore(deps.redis, policy.windowSeconds);
  const ctx: AuthContext = {
    app,
    pool: deps.pool,
    users: new UsersStore(deps.pool),
    sessions: new SessionsStore(deps.pool),
    revocations: new RevocationStore(deps.pool, deps.redis),
    avatars: deps.avatars,
    fences: new AccessFences(deps.redis),
    throttle,
    passwords: passwordChecker({
      throttle,
      policy,
      sleep: deps.sleep ?? ((ms) => sleep(ms)),
    }),
    issueSession: createSessionIssuer(deps.signingKey),
    relay: deps.relay,
    spool: deps.spool,
    cookieSecure: deps.cookieSecure ?? false,
  };
  // Routes are added after the plugins above have loaded (their decorators are needed).
  void app.after(() => {
    installErrorMap(app, httpErrorOf);
    registerRoute(ctx);
    loginRoute(ctx);
    sessionRoutes(ctx);
    avatarRoutes(ctx);
    accountRoutes(ctx);
    exportRoutes(ctx);
  });
  return app;
}
