import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from './errors';
import { verifyIdentityProof, type ProvenIdentity } from './identity-proof';

export interface Identity {
  userId: string;
  sessionId?: string;
  /** Session expiry, seconds since the epoch. */
  sessionExpires?: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the gateway's identity proof vouches for (null before the check, and on probes). */
    provenIdentity: ProvenIdentity | null;
  }
}

/**
 * Routes answered without a proof: the probes of the orchestrator and Prometheus's scrape,
 * which carry no identity (a service's port is not public: the gateway forwards only `/api/*`).
 */
const UNPROVEN_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Installs the one check of the gateway's identity proof (`createHttpApp` does it): every
 * request but the probes needs a valid proof, else a 401 naming what is wrong; a valid proof
 * sets `request.provenIdentity`, the only identity `identityOf`, `requireUserId` and
 * `clientIpOf` read. With no secret (the gateway itself, which mints proofs) nothing is checked
 * and those read null.
 */
export function installIdentityProofCheck(app: FastifyInstance, secret: Buffer | null): void {
  app.decorateRequest('provenIdentity', null);
  if (!secret) return;
  // a callback hook (no promise per request): every request of every service runs it
  app.addHook('onRequest', (request, reply, done) => {
    if (UNPROVEN_ROUTES.has(request.routeOptions.url ?? '')) return done();
    const check = verifyIdentityProof(request, secret);
    if (!check.ok) {
      request.log.warn(
        { reason: check.reason },
        'refused a request without a valid identity proof',
      );
      reply.code(401).send({ error: 'unauthorized', message: check.message });
      return;
    }
    request.provenIdentity = check.identity;
    done();
  });
}

/**
 * The caller's identity as the gateway proved it (never a raw header, never a body field), or
 * null when nobody is signed in.
 */
export function identityOf(request: FastifyRequest): Identity | null {
  const proven = request.provenIdentity;
  if (!proven?.userId) return null;
  return {
    userId: proven.userId,
    sessionId: proven.sessionId ?? undefined,
    sessionExpires: proven.sessionExpires ?? undefined,
  };
}

/** The verified user id, or a 401. */
export function requireUserId(request: FastifyRequest): string {
  const identity = identityOf(request);
  if (!identity) throw new HttpError(401, 'You need to be signed in.');
  return identity.userId;
}

/**
 * The client's address as the gateway determined it and proved it: what per-address limits
 * key on. Never `request.ip` (a service trusts no `X-Forwarded-For`).
 */
export function clientIpOf(request: FastifyRequest): string {
  const ip = request.provenIdentity?.clientIp;
  if (!ip) throw new HttpError(401, 'This service only answers requests forwarded by the gateway.');
  return ip;
}
