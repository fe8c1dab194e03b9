import type { ProtectedResponse, UserDetailsResponse } from '@wayfarer/contracts';
import { identityOf, notFound, requireUserId } from '@wayfarer/service-kit';
import { avatarUrl } from '../domain/avatar';
import { revocationExpiresAt } from '../domain/session';
import type { AuthContext } from './context';
import { clearSessionCookie } from './cookies';

const SESSION_ID = /^[\w-]{1,128}$/;

export const LOGGED_OUT_MESSAGE = 'Logged out.';
export const LOGOUT_UNAVAILABLE_MESSAGE =
  'Logout could not be recorded: the session store (PostgreSQL) is unavailable. The session cookie was removed from this browser; please try again in a moment.';

export function sessionRoutes(ctx: AuthContext): void {
  const { app, users, revocations } = ctx;

  // The gateway forwards the identity headers only when the cookie was valid. Success is
  // answered only once the revocation is committed in PostgreSQL (Redis, what the gateway
  // checks, is synced from it if its own write failed); the cookie is cleared either way.
  app.post('/api/logout', async (request, reply) => {
    const identity = identityOf(request);
    clearSessionCookie(reply, ctx.cookieSecure);
    const expiresAt = revocationExpiresAt(identity?.sessionExpires);
    if (identity?.sessionId && SESSION_ID.test(identity.sessionId) && expiresAt !== null) {
      const result = await revocations.revoke(identity.sessionId, expiresAt);
      for (const err of result.errors)
        request.log.warn({ err }, 'logout: a revocation write failed');
      if (!result.recorded) {
        return reply
          .code(503)
          .send({ error: 'service_unavailable', message: LOGOUT_UNAVAILABLE_MESSAGE });
      }
    }
    return { message: LOGGED_OUT_MESSAGE };
  });

  app.get('/api/protected', async (request) => {
    const body: ProtectedResponse = { ok: true, userId: requireUserId(request) };
    return body;
  });

  app.get('/api/userDetails', async (request) => {
    const user = await users.findById(requireUserId(request));
    if (!user) throw notFound('User not found.');
    const body: UserDetailsResponse = {
      username: user.name,
      profilePicture: avatarUrl(user.avatarKey),
    };
    return body;
  });
}
