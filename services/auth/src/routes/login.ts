import { LoginBody, type LoginResponse } from '@wayfarer/contracts';
import { HttpError, parse } from '@wayfarer/service-kit';
import type { AuthContext } from './context';
import { setSessionCookie } from './cookies';
import { passwordChecker } from './password-check';

export { clientAddressOf, LOGIN_UNAVAILABLE_MESSAGE } from './password-check';

export const INVALID_LOGIN_MESSAGE = 'Invalid login details.';
export const LOGIN_MESSAGE = 'Login successful.';

export function loginRoute(ctx: AuthContext): void {
  const { app, users } = ctx;
  const checkPassword = passwordChecker(ctx);

  app.post('/api/login', async (request, reply) => {
    const { email, password } = parse(LoginBody, request.body);
    const user = await users.findByEmail(email);
    const check = await checkPassword(request, reply, email, user?.passwordHash ?? null, password);
    if (check === 'throttled') return reply;
    if (!user || check === 'wrong') {
      throw new HttpError(401, INVALID_LOGIN_MESSAGE, 'invalid_credentials');
    }
    const session = ctx.issueSession(user.id);
    await ctx.sessions.record({
      jti: session.claims.jti,
      userId: user.id,
      exp: session.claims.exp,
    });
    setSessionCookie(reply, session.token, ctx.cookieSecure);
    const body: LoginResponse = { user: { id: user.id }, message: LOGIN_MESSAGE };
    return body;
  });
}
