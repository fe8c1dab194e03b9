import {
  createHmac,
  createSecretKey,
  randomBytes,
  timingSafeEqual,
  type KeyObject,
} from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { IdentityHeaders } from '@wayfarer/contracts';
import { ConfigError } from './config';
import { canonicalPath } from './request-path';

export { canonicalPath } from './request-path';

/**
 * The gateway's identity proof: per proxied request, an HMAC-SHA256 with a secret shared by the
 * gateway and the services (`IDENTITY_PROOF_SECRET`) over the identity it forwards (user,
 * session, the client address it determined), the request's method and path, and a short
 * expiry. A service answers only requests that carry a valid one (service-kit's `createHttpApp`
 * checks it for every route but the probes), so reaching a service's port is not enough to act
 * as somebody: the identity headers mean something only with the proof.
 *
 * Header: `x-identity-proof: v1.<exp>.<base64url mac>`, exp in seconds since the epoch. The
 * MAC input is the JSON array `["v1", userId, sessionId, sessionExp, clientIp, METHOD, path,
 * exp]` (JSON so that no field can be shifted into another; absent fields are ""), `path` in
 * its canonical form (`canonicalPath`, `request-path.ts`): the gateway and the service hash the
 * same text even when a URL parser between them percent-encoded a character of the path.
 */
export const IDENTITY_PROOF_VERSION = 'v1';
/** How long a proof is valid: one hop, gateway to service, plus clock skew between them. */
export const IDENTITY_PROOF_TTL_SECONDS = 60;
export const IDENTITY_PROOF_SECRET_MIN_BYTES = 32;

/** What a valid proof vouches for. */
export interface ProvenIdentity {
  /** The signed-in user, or null on a public route or an optional one without a session. */
  userId: string | null;
  sessionId: string | null;
  /** Session expiry, seconds since the epoch. */
  sessionExpires: number | null;
  /** The client address as the gateway determined it (its TRUST_PROXY rules). */
  clientIp: string;
}

/** The request a proof is bound to (query string excluded). */
export interface ProofScope {
  method: string;
  /** The path as sent or received: the MAC binds its canonical form (`canonicalPath`). */
  path: string;
}

/** The part of a request the proof is checked against: a Node `IncomingMessage` fits. */
export interface ProofRequest {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}

export type ProofCheck =
  | { ok: true; identity: ProvenIdentity }
  | { ok: false; reason: 'missing' | 'malformed' | 'expired' | 'invalid'; message: string };

const PROOF_SHAPE = /^v1\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

/** The path a proof binds: the request target without its query string. */
export const proofPath = (url: string): string => url.split('?', 1)[0] ?? '';

// An HMAC keyed with a KeyObject costs a few µs; keyed with a Buffer, several times that (the key
// is imported on every call). One KeyObject per secret, made on first use.
const keys = new WeakMap<Buffer, KeyObject>();
function keyOf(secret: Buffer): KeyObject {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(secret)));
  return key;
}

function mac(secret: Buffer, identity: ProvenIdentity, scope: ProofScope, expires: number): Buffer {
  const input = JSON.stringify([
    IDENTITY_PROOF_VERSION,
    identity.userId ?? '',
    identity.sessionId ?? '',
    identity.sessionExpires === null ? '' : String(identity.sessionExpires),
    identity.clientIp,
    scope.method.toUpperCase(),
    canonicalPath(scope.path),
    expires,
  ]);
  return createHmac('sha256', keyOf(secret)).update(input).digest();
}

/** A proof for this identity and request, valid for IDENTITY_PROOF_TTL_SECONDS from `nowMs`. */
export function mintIdentityProof(
  identity: ProvenIdentity,
  scope: ProofScope,
  secret: Buffer,
  nowMs: number = Date.now(),
): string {
  const expires = Math.floor(nowMs / 1000) + IDENTITY_PROOF_TTL_SECONDS;
  return `${IDENTITY_PROOF_VERSION}.${expires}.${mac(secret, identity, scope, expires).toString('base64url')}`;
}

/**
 * Every header the gateway sets for a proxied request: the identity headers (user and session
 * only when there is one), the client address and the proof binding them to this request.
 */
export function identityProofHeaders(
  identity: ProvenIdentity,
  scope: ProofScope,
  secret: Buffer,
  nowMs: number = Date.now(),
): Record<string, string> {
  const headers: Record<string, string> = {
    [IdentityHeaders.clientIp]: identity.clientIp,
    [IdentityHeaders.proof]: mintIdentityProof(identity, scope, secret, nowMs),
  };
  if (identity.userId !== null) headers[IdentityHeaders.userId] = identity.userId;
  if (identity.sessionId !== null) headers[IdentityHeaders.sessionId] = identity.sessionId;
  if (identity.sessionExpires !== null) {
    headers[IdentityHeaders.sessionExpires] = String(identity.sessionExpires);
  }
  return headers;
}

/**
 * How long a minted proof is reused for the same identity and request (method and path): a
 * reused proof still has at least IDENTITY_PROOF_TTL_SECONDS - IDENTITY_PROOF_REUSE_SECONDS
 * (50 s) to live when it reaches the service. A proof is already replayable within its minute,
 * so reuse opens nothing new; it spares the gateway an HMAC per request.
 */
export const IDENTITY_PROOF_REUSE_SECONDS = 10;

/**
 * Mints `identityProofHeaders` for the gateway, reusing the headers minted for the same
 * identity, method and path within the last IDENTITY_PROOF_REUSE_SECONDS (at most `maxEntries`
 * kept, the oldest dropped first). The same answer as minting anew, less often: the HMAC was a
 * tenth of the gateway's CPU per proxied request. The headers returned are frozen and shared.
 */
export class IdentityProofMinter {
  private readonly minted = new Map<string, { expires: number; headers: Record<string, string> }>();

  constructor(
    private readonly secret: Buffer,
    private readonly maxEntries = 10_000,
  ) {}

  headers(identity: ProvenIdentity, scope: ProofScope, nowMs: number = Date.now()) {
    const key = JSON.stringify([
      identity.userId,
      identity.sessionId,
      identity.sessionExpires,
      identity.clientIp,
      scope.method,
      scope.path,
    ]);
    const nowSeconds = Math.floor(nowMs / 1000);
    const kept = this.minted.get(key);
    if (
      kept &&
      kept.expires - nowSeconds >= IDENTITY_PROOF_TTL_SECONDS - IDENTITY_PROOF_REUSE_SECONDS
    ) {
      return kept.headers;
    }
    const headers = Object.freeze(identityProofHeaders(identity, scope, this.secret, nowMs));
    if (kept) this.minted.delete(key);
    else if (this.minted.size >= this.maxEntries) {
      this.minted.delete(this.minted.keys().next().value!);
    }
    this.minted.set(key, { expires: nowSeconds + IDENTITY_PROOF_TTL_SECONDS, headers });
    return headers;
  }

  /** Proofs kept for reuse (tests). */
  get size(): number {
    return this.minted.size;
  }
}

const GATEWAY_ONLY = 'This service only answers requests forwarded by the gateway';

const REPEATED = Symbol('repeated');

/** One header's value; a repeated identity header is refused (never pick one of several). */
function single(headers: ProofRequest['headers'], name: string): string | null | typeof REPEATED {
  const value = headers[name];
  if (Array.isArray(value)) return REPEATED;
  return value === undefined || value === '' ? null : value;
}

/**
 * Checks the gateway's proof on a request: pure (no I/O), usable outside Fastify, e.g. on a
 * WebSocket upgrade request (`verifyIdentityProof(req, secret)` with Node's IncomingMessage).
 * Constant-time comparison of the MAC; a proof is refused once `nowMs` reaches its expiry.
 */
export function verifyIdentityProof(
  request: ProofRequest,
  secret: Buffer,
  nowMs: number = Date.now(),
): ProofCheck {
  const { headers } = request;
  const proof = single(headers, IdentityHeaders.proof);
  if (proof === null) {
    return {
      ok: false,
      reason: 'missing',
      message: `${GATEWAY_ONLY}: this request has no identity proof.`,
    };
  }
  const values = {
    proof,
    userId: single(headers, IdentityHeaders.userId),
    sessionId: single(headers, IdentityHeaders.sessionId),
    sessionExpires: single(headers, IdentityHeaders.sessionExpires),
    clientIp: single(headers, IdentityHeaders.clientIp),
  };
  const shape = typeof values.proof === 'string' ? PROOF_SHAPE.exec(values.proof) : null;
  const sessionExpires =
    values.sessionExpires === null ? null : Number(values.sessionExpires as string);
  if (
    !shape ||
    Object.values(values).includes(REPEATED) ||
    values.clientIp === null ||
    (sessionExpires !== null && !Number.isSafeInteger(sessionExpires))
  ) {
    return {
      ok: false,
      reason: 'malformed',
      message: `${GATEWAY_ONLY}: its identity proof is malformed.`,
    };
  }
  const expires = Number(shape[1]);
  if (nowMs >= expires * 1000) {
    return {
      ok: false,
      reason: 'expired',
      message: `${GATEWAY_ONLY}: its identity proof has expired.`,
    };
  }
  const identity: ProvenIdentity = {
    userId: values.userId as string | null,
    sessionId: values.sessionId as string | null,
    sessionExpires,
    clientIp: values.clientIp as string,
  };
  const scope = { method: request.method ?? '', path: proofPath(request.url ?? '') };
  const expected = mac(secret, identity, scope, expires);
  const given = Buffer.from(shape[2]!, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return {
      ok: false,
      reason: 'invalid',
      message: `${GATEWAY_ONLY}: its identity proof is not valid for this request.`,
    };
  }
  return { ok: true, identity };
}

// ------------------------------------------------------------------ the secret

/**
 * Env fragment of the gateway and every service (spread it into the schema). The secret is at
 * least 32 bytes, the same value everywhere: IDENTITY_PROOF_SECRET, or the content of the file
 * IDENTITY_PROOF_SECRET_FILE names (a mounted secret: docker-compose.yml generates one); when
 * both are absent and NODE_ENV is not `production`, a local one is generated into
 * SESSION_KEY_DIR (next to the dev session keys).
 */
export const identityProofEnv = {
  IDENTITY_PROOF_SECRET: z
    .string()
    .refine(
      (s) => Buffer.byteLength(s) >= IDENTITY_PROOF_SECRET_MIN_BYTES,
      `must be at least ${IDENTITY_PROOF_SECRET_MIN_BYTES} bytes (e.g. \`openssl rand -base64 48\`)`,
    )
    .optional(),
  IDENTITY_PROOF_SECRET_FILE: z.string().min(1).optional(),
  SESSION_KEY_DIR: z.string().optional(),
  NODE_ENV: z.string().optional(),
};

export interface IdentityProofEnv {
  IDENTITY_PROOF_SECRET?: string;
  IDENTITY_PROOF_SECRET_FILE?: string;
  SESSION_KEY_DIR?: string;
  NODE_ENV?: string;
}

/**
 * Secrets that were published in this repository (docker-compose.yml's former default): anyone
 * can forge requests to a service with them, so a production process refuses to start with one.
 */
export const KNOWN_DEFAULT_IDENTITY_PROOF_SECRETS: readonly string[] = [
  'wayfarer-local-identity-proof-secret-change-me',
];

const DEV_SECRET_FILE = 'identity-proof.secret';

/** Reads the dev secret from `dir`, creating it atomically if no process has yet. */
export function ensureDevIdentitySecret(dir: string): Buffer {
  const file = join(dir, DEV_SECRET_FILE);
  const read = () => Buffer.from(readFileSync(file, 'utf8').trim());
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, randomBytes(48).toString('base64url'), { mode: 0o600 });
  try {
    linkSync(tmp, file); // atomic: fails if another process won the race
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
  return read();
}

/** The secret given by the operator, and the variable that gave it; null when none did. */
function givenSecret(env: IdentityProofEnv): { name: string; value: string } | null {
  if (env.IDENTITY_PROOF_SECRET) {
    return { name: 'IDENTITY_PROOF_SECRET', value: env.IDENTITY_PROOF_SECRET };
  }
  const file = env.IDENTITY_PROOF_SECRET_FILE;
  if (!file) return null;
  try {
    return { name: 'IDENTITY_PROOF_SECRET_FILE', value: readFileSync(file, 'utf8').trim() };
  } catch (err) {
    throw new ConfigError([
      `IDENTITY_PROOF_SECRET_FILE is invalid: cannot read ${file} (${(err as Error).message})`,
    ]);
  }
}

/**
 * The proof secret: IDENTITY_PROOF_SECRET, else the file IDENTITY_PROOF_SECRET_FILE names;
 * else, outside production, the local one in SESSION_KEY_DIR. In production a secret listed in
 * KNOWN_DEFAULT_IDENTITY_PROOF_SECRETS is refused. Throws a ConfigError naming the variable.
 */
export function loadIdentityProofSecret(env: IdentityProofEnv): Buffer {
  const given = givenSecret(env);
  if (given) {
    if (Buffer.byteLength(given.value) < IDENTITY_PROOF_SECRET_MIN_BYTES) {
      throw new ConfigError([
        `${given.name} is invalid: must be at least ${IDENTITY_PROOF_SECRET_MIN_BYTES} bytes`,
      ]);
    }
    if (
      env.NODE_ENV === 'production' &&
      KNOWN_DEFAULT_IDENTITY_PROOF_SECRETS.includes(given.value)
    ) {
      throw new ConfigError([
        `${given.name} is a well-known default (published in docker-compose.yml): refused when ` +
          'NODE_ENV=production, since anyone could forge requests to the services with it. Set ' +
          'your own (e.g. `openssl rand -base64 48`), the same for the gateway and every service.',
      ]);
    }
    return Buffer.from(given.value);
  }
  if (env.NODE_ENV === 'production') {
    throw new ConfigError([
      'IDENTITY_PROOF_SECRET is missing (required when NODE_ENV=production, or ' +
        `IDENTITY_PROOF_SECRET_FILE: at least ${IDENTITY_PROOF_SECRET_MIN_BYTES} random bytes, ` +
        'the same value for the gateway and every service)',
    ]);
  }
  if (env.SESSION_KEY_DIR) return ensureDevIdentitySecret(env.SESSION_KEY_DIR);
  throw new ConfigError([
    'IDENTITY_PROOF_SECRET is missing (or set SESSION_KEY_DIR to generate a local one)',
  ]);
}
