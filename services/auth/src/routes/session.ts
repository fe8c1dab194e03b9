import type { ProtectedResponse } from '@wayfarer/contracts';
import { identityOf, requireUserId } from '@wayfarer/service-kit';
import { LOGGED_OUT_MESSAGE } from '../domain/messages';
import { logOut } from '../usecases/logout';
import { readUserDetails } from '../usecases/read-details';
import type { AuthContext } from './context';
import { clearSessionCookie } from './cookies';

export function sessionRoutes(ctx: AuthContext): void {
  const { app } = ctx;

  // The gateway forwards the identity headers only when the cookie was valid. Success is
  // answered only once the revocation is committed; the cookie is cleared either way.
  app.post('/api/logout', async (request, reply) => {
    clearSessionCookie(reply, ctx.cookieSecure);
    await logOut(ctx, identityOf(request), request.log);
    return { message: LOGGED_OUT_MESSAGE };
  });

  app.get('/api/protected', async (request) => {
    const body: ProtectedResponse = { ok: true, userId: requireUserId(request) };
    return body;
  });

  app.get('/api/userDetails', (request) => readUserDetails(ctx, requireUserId(request)));
}
