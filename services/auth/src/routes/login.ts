import { LoginBody, type LoginResponse } from '@wayfarer/contracts';
import { clientIpOf, parse } from '@wayfarer/service-kit';
import { LOGIN_MESSAGE } from '../domain/messages';
import { logIn } from '../usecases/login';
import type { AuthContext } from './context';
import { setSessionCookie } from './cookies';

/**
 * `POST /api/login`. The login throttle keys on the client's address the gateway determined and
 * proved (service-kit `clientIpOf`), never on a forwarded header a caller could set.
 */
export function loginRoute(ctx: AuthContext): void {
  ctx.app.post('/api/login', async (request, reply) => {
    const { email, password } = parse(LoginBody, request.body);
    const session = await logIn(
      ctx,
      { email, password, clientIp: clientIpOf(request) },
      request.log,
    );
    setSessionCookie(reply, session.token, ctx.cookieSecure);
    const body: LoginResponse = { user: { id: session.userId }, message: LOGIN_MESSAGE };
    return body;
  });
}
