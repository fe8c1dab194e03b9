import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { LoginBody, type LoginResponse } from '@wayfarer/contracts';
import { clientIpOf, HttpError, parse } from '@wayfarer/service-kit';
import { throttleAddress, throttleDecision, throttleMessage } from '../domain/throttle';
import { RedisUnavailableError } from '../store/redis';
import type { AuthContext } from '../app';
import { setSessionCookie } from './cookies';

export const INVALID_LOGIN_MESSAGE = 'Invalid login details.';
export const LOGIN_MESSAGE = 'Login successful.';
export const LOGIN_UNAVAILABLE_MESSAGE =
  'Login is unavailable right now: the store that guards against password guessing (Redis) cannot be reached. Please try again in a moment.';

/**
 * The client's address the login throttle keys on: the one the gateway determined and proved
 * (service-kit `clientIpOf`), never a forwarded header a caller could set.
 */
export const clientAddressOf = (request: FastifyRequest): string => clientIpOf(request);

/**
 * Without its counters the throttle cannot protect against guessing, so no password is checked:
 * a fast 503 naming the cause (README "Redis outage").
 */
async function guarded<T>(op: Promise<T>): Promise<T> {
  try {
    return await op;
  } catch (err) {
    if (err instanceof RedisUnavailableError) {
      throw new HttpError(503, LOGIN_UNAVAILABLE_MESSAGE, 'service_unavailable');
    }
    throw err;
  }
}

export function loginRoute(ctx: AuthContext): void {
  const { app, users, throttle, throttlePolicy } = ctx;
  // Verified against when the email is unknown, so both answers take about as long.
  const dummyHash = argon2.hash(randomBytes(32).toString('hex'), { type: argon2.argon2id });
  dummyHash.catch(() => undefined);

  app.post('/api/login', async (request, reply) => {
    const { email, password } = parse(LoginBody, request.body);
    const address = throttleAddress(clientAddressOf(request));

    const decision = throttleDecision(await guarded(throttle.read(address, email)), throttlePolicy);
    if (!decision.allowed) {
      request.log.warn({ scope: decision.scope }, 'login throttled');
      return reply
        .code(429)
        .header('retry-after', String(decision.retryAfterSeconds))
        .send({ error: 'too_many_requests', message: throttleMessage(decision.retryAfterSeconds) });
    }
    // The account's slowdown, before the password is checked: right or wrong, every attempt on
    // an account under attack waits the same (bounded) time.
    if (decision.delayMs > 0) {
      request.log.info({ delayMs: decision.delayMs }, 'login slowed down');
      await ctx.sleep(decision.delayMs);
    }

    const user = await users.findByEmail(email);
    const ok = user
      ? await argon2.verify(user.passwordHash, password)
      : await argon2.verify(await dummyHash, password).then(() => false);
    if (!user || !ok) {
      await guarded(throttle.recordFailure(address, email));
      throw new HttpError(401, INVALID_LOGIN_MESSAGE, 'invalid_credentials');
    }
    // A reset that fails only leaves the owner slowed a little longer: not worth refusing her.
    await throttle.reset(address, email).catch((err: unknown) => {
      request.log.warn({ err }, 'could not reset the login throttle after a success');
    });

    const session = ctx.issueSession(user.id);
    setSessionCookie(reply, session.token, ctx.cookieSecure);
    const body: LoginResponse = { user: { id: user.id }, message: LOGIN_MESSAGE };
    return body;
  });
}
