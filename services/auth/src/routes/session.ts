import type { ProtectedResponse, UserDetailsResponse } from '@wayfarer/contracts';
import { identityOf, notFound, requireUserId } from '@wayfarer/service-kit';
import { avatarUrl } from '../domain/avatar';
import { revocationTtlSeconds } from '../domain/session';
import { revokeSession } from '../store/redis';
import type { AuthContext } from '../app';
import { clearSessionCookie } from './cookies';

const SESSION_ID = /^[\w-]{1,128}$/;

export function sessionRoutes(ctx: AuthContext): void {
  const { app, users, redis } = ctx;

  // The gateway forwards the identity headers only when the cookie was valid.
  app.post('/api/logout', async (request, reply) => {
    const identity = identityOf(request);
    if (identity?.sessionId && SESSION_ID.test(identity.sessionId)) {
      await revokeSession(redis, identity.sessionId, revocationTtlSeconds(identity.sessionExpires));
    }
    clearSessionCookie(reply, ctx.cookieSecure);
    return { message: 'Logged out.' };
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
