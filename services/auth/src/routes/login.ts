import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import { LoginBody, type LoginResponse } from '@wayfarer/contracts';
import { HttpError, parse } from '@wayfarer/service-kit';
import { throttleDecision, throttleMessage } from '../domain/throttle';
import type { AuthContext } from '../app';
import { setSessionCookie } from './cookies';

export const INVALID_LOGIN_MESSAGE = 'Invalid login details.';
export const LOGIN_MESSAGE = 'Login successful.';

export function loginRoute(ctx: AuthContext): void {
  const { app, users, throttle, throttlePolicy } = ctx;
  // Verified against when the email is unknown, so both answers take about as long.
  const dummyHash = argon2.hash(randomBytes(32).toString('hex'), { type: argon2.argon2id });
  dummyHash.catch(() => undefined);

  app.post('/api/login', async (request, reply) => {
    const { email, password } = parse(LoginBody, request.body);
    const ip = request.ip;

    const decision = throttleDecision(await throttle.read(email, ip), throttlePolicy);
    if (!decision.allowed) {
      request.log.warn({ scope: decision.scope }, 'login throttled');
      return reply
        .code(429)
        .header('retry-after', String(decision.retryAfterSeconds))
        .send({ error: 'too_many_requests', message: throttleMessage(decision.retryAfterSeconds) });
    }

    const user = await users.findByEmail(email);
    const ok = user
      ? await argon2.verify(user.passwordHash, password)
      : await argon2.verify(await dummyHash, password).then(() => false);
    if (!user || !ok) {
      await throttle.recordFailure(email, ip);
      throw new HttpError(401, INVALID_LOGIN_MESSAGE, 'invalid_credentials');
    }
    await throttle.reset(email);

    const session = ctx.issueSession(user.id);
    setSessionCookie(reply, session.token, ctx.cookieSecure);
    const body: LoginResponse = { user: { id: user.id }, message: LOGIN_MESSAGE };
    return body;
  });
}
