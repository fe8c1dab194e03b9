import type { FastifyReply } from 'fastify';
import { SESSION_COOKIE, SESSION_TTL_SECONDS } from '@wayfarer/contracts';

function options(secure: boolean) {
  return { httpOnly: true, sameSite: 'lax', path: '/', secure } as const;
}

/** Sets the session cookie: httpOnly, SameSite=Lax, whole site, lives as long as the token. */
export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, { ...options(secure), maxAge: SESSION_TTL_SECONDS });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, options(secure));
}
