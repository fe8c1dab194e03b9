import type { FastifyRequest } from 'fastify';
import { IdentityHeaders } from '@wayfarer/contracts';
import { HttpError } from './errors';

export interface Identity {
  userId: string;
  sessionId?: string;
  /** Session expiry, seconds since the epoch. */
  sessionExpires?: number;
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * The caller's identity as verified by the gateway. Services sit behind the gateway, which
 * strips client-sent identity headers, so these are trusted; no body field ever is.
 */
export function identityOf(request: FastifyRequest): Identity | null {
  const userId = header(request, IdentityHeaders.userId);
  if (!userId) return null;
  const exp = Number(header(request, IdentityHeaders.sessionExpires));
  return {
    userId,
    sessionId: header(request, IdentityHeaders.sessionId),
    sessionExpires: Number.isFinite(exp) ? exp : undefined,
  };
}

/** The verified user id, or a 401. */
export function requireUserId(request: FastifyRequest): string {
  const identity = identityOf(request);
  if (!identity) throw new HttpError(401, 'You need to be signed in.');
  return identity.userId;
}
