import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Redis } from 'ioredis';
import { IdentityHeaders, SESSION_COOKIE } from '@wayfarer/contracts';
import { createKafka, createLogger, type OutboxRelay } from '@wayfarer/service-kit';
import { createPgPool, migrate, startOutboxRelay, type Pool } from '@wayfarer/service-kit/pg';
import { ObjectStore } from '@wayfarer/storage';
import {
  dropBucket,
  dropDatabase,
  freshDatabase,
  multipartBody,
  testInfra,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { buildApp, type AuthDeps } from '../../src/app';
import { PUBLISHED_TOPICS } from '../../src/events/outbox';
import { migrations } from '../../src/store/migrations';
import { connectRedis } from '../../src/store/redis';

export interface Harness {
  app: FastifyInstance;
  pool: Pool;
  redis: Redis;
  avatars: ObjectStore;
  relay: OutboxRelay;
  signingKey: KeyObject;
  bucket: string;
  close(): Promise<void>;
}

/** auth wired to real stores: a fresh database and a fresh bucket for this test file. */
export async function startAuth(overrides: Partial<AuthDeps> = {}): Promise<Harness> {
  const infra = testInfra();
  const dbUrl = await freshDatabase('auth');
  const pool = createPgPool(dbUrl);
  await migrate(pool, migrations);
  const redis = connectRedis(infra.redisUrl);
  const bucket = `t-avatars-${uniqueSuffix()}`;
  const avatars = ObjectStore.connect({ ...infra.s3, region: 'us-east-1', bucket });
  await avatars.ensureBucket();
  const logger = createLogger('auth-test', process.env.TEST_LOG_LEVEL ?? 'silent');
  const kafka = createKafka({
    clientId: `auth-test-${uniqueSuffix()}`,
    brokers: infra.kafkaBrokers,
    logger,
  });
  const relay = startOutboxRelay({
    pool,
    kafka,
    logger,
    topics: PUBLISHED_TOPICS,
    pollIntervalMs: 100,
  });
  const signingKey = generateKeyPairSync('ed25519').privateKey;
  const app = buildApp({ logger, pool, redis, avatars, signingKey, relay, ...overrides });
  await app.ready();
  return {
    app,
    pool,
    redis,
    avatars,
    relay,
    signingKey,
    bucket,
    async close() {
      await app.close();
      await relay.stop();
      redis.disconnect();
      await pool.end();
      await dropDatabase(dbUrl);
      await dropBucket(bucket);
    },
  };
}

export interface FilePart {
  field?: string;
  filename?: string;
  type?: string;
  data: Uint8Array;
}

/** A registration form body; files default to the `profilePicture` field. */
export function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  return multipartBody(
    fields,
    files.map((f) => ({
      ...f,
      field: f.field ?? 'profilePicture',
      filename: f.filename ?? 'picture.bin',
    })),
  );
}

export function newUser(tag = 'user') {
  const suffix = uniqueSuffix();
  return {
    name: `Ada ${tag}`,
    email: `${tag}.${suffix}@example.com`,
    password: `correct horse ${suffix}`,
  };
}

export async function register(
  app: FastifyInstance,
  fields: Record<string, string>,
  files: FilePart[] = [],
): Promise<LightMyRequestResponse> {
  const body = await multipart(fields, files);
  return app.inject({ method: 'POST', url: '/api/register', ...body });
}

export function sessionCookie(res: LightMyRequestResponse) {
  return res.cookies.find((c) => c.name === SESSION_COOKIE);
}

/** The claims inside a token (not verified: the unit tests cover signatures). */
export function claimsOf(token: string): { sub: string; jti: string; exp: number; iat: number } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as never;
}

/** Headers the gateway would forward for the session in `token`. */
export function identityFor(token: string): Record<string, string> {
  const c = claimsOf(token);
  return {
    [IdentityHeaders.userId]: c.sub,
    [IdentityHeaders.sessionId]: c.jti,
    [IdentityHeaders.sessionExpires]: String(c.exp),
  };
}

export const randomIp = () =>
  `10.${Math.floor(Math.random() * 255)}.${Math.floor(Math.random() * 255)}.${1 + Math.floor(Math.random() * 254)}`;
