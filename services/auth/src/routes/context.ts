import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { AccessFences, OutboxRelay } from '@wayfarer/service-kit';
import type { Pool } from '@wayfarer/service-kit/pg';
import type { ObjectStore, SpoolArea } from '@wayfarer/storage';
import type { ThrottlePolicy } from '../domain/throttle';
import type { SessionIssuer } from '../domain/token';
import type { LoginThrottleStore } from '../store/redis';
import type { RevocationStore } from '../store/revocations';
import type { SessionsStore } from '../store/sessions';
import type { UsersRepo } from '../store/users';

/** What the route modules share. */
export interface AuthContext {
  app: FastifyInstance;
  pool: Pool;
  redis: Redis;
  users: UsersRepo;
  avatars: ObjectStore;
  spool: SpoolArea;
  throttle: LoginThrottleStore;
  throttlePolicy: ThrottlePolicy;
  revocations: RevocationStore;
  sessions: SessionsStore;
  /** The closed-account fence: written before a closing commits, read by avatars. */
  fences: AccessFences;
  sleep: (ms: number) => Promise<void>;
  issueSession: SessionIssuer;
  relay?: Pick<OutboxRelay, 'kick'>;
  cookieSecure: boolean;
}
