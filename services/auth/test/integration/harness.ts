import { generateKeyPairSync } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { IdentityHeaders, SESSION_COOKIE } from '@wayfarer/contracts';
import { loadConfig } from '@wayfarer/service-kit';
import {
  dropBucket,
  dropDatabase,
  freshDatabase,
  multipartBody,
  testServiceEnv,
  throughGateway,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { AuthEnv } from '../../src/config';
import { createService, type AuthService, type AuthServiceOptions } from '../../src/service';

export type Harness = AuthService & { bucket: string };

export interface StartOptions extends AuthServiceOptions {
  /** Env entries over the test env, given it (e.g. the test's own Redis, a proxy to PostgreSQL). */
  env?: (testEnv: Record<string, string>) => Record<string, string>;
}

/** auth booted by its composition root on a fresh database and a fresh bucket for this file. */
export async function startAuth(options: StartOptions = {}): Promise<Harness> {
  const dbUrl = await freshDatabase('auth');
  const bucket = `t-avatars-${uniqueSuffix()}`;
  const base = testServiceEnv({
    DATABASE_URL: dbUrl,
    AVATAR_BUCKET: bucket,
    SESSION_PRIVATE_KEY: generateKeyPairSync('ed25519')
      .privateKey.export({ format: 'pem', type: 'pkcs8' })
      .toString(),
  });
  const env = loadConfig(AuthEnv, { ...base, ...options.env?.(base) });
  const dropStores = async () => {
    await dropDatabase(dbUrl);
    await dropBucket(bucket);
  };
  const svc = await createService(env, { sleep: options.sleep, skipHistory: true }).catch(
    async (err: unknown) => {
      await dropStores();
      throw err;
    },
  );
  return {
    ...svc,
    app: throughGateway(svc.app),
    bucket,
    async close() {
      await svc.close();
      await dropStores();
    },
  };
}

/** auth for one test file: started before its tests (handed to `started`), closed after them. */
export function startAuthPerFile(started: (h: Harness) => void, options?: StartOptions): void {
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startAuth(options);
    started(h);
  });
  afterAll(async () => {
    await h?.close();
  });
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

/** How many users auth has. */
export const countUsers = async (h: Harness) =>
  Number((await h.pool.query<{ n: string }>('SELECT count(*) AS n FROM users')).rows[0]!.n);

/** Runs `fn` and checks it created no user and left nothing in the bucket. */
export async function expectNoTrace(h: Harness, fn: () => Promise<void>) {
  const objects = async () => (await h.avatars.list()).length;
  const [users, before] = [await countUsers(h), await objects()];
  await fn();
  expect(await countUsers(h)).toBe(users);
  expect(await objects()).toBe(before);
}
