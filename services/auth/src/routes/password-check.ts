import argon2 from 'argon2';
import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { clientIpOf, HttpError } from '@wayfarer/service-kit';
import { throttleAddress, throttleDecision, throttleMessage } from '../domain/throttle';
import { RedisUnavailableError } from '../store/redis';
import type { AuthContext } from './context';

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
export async function guarded<T>(op: Promise<T>): Promise<T> {
  try {
    return await op;
  } catch (err) {
    if (err instanceof RedisUnavailableError) {
      throw new HttpError(503, LOGIN_UNAVAILABLE_MESSAGE, 'service_unavailable');
    }
    throw err;
  }
}

/** What a throttled password check found: right, wrong, or refused (the 429 already sent). */
export type PasswordCheck = 'right' | 'wrong' | 'throttled';

/**
 * Checks a password against an account under the login throttle (`domain/throttle.ts`): login,
 * `POST /api/password` and `DELETE /api/account` share its counters, so a guess through any of
 * them counts. A blocked address gets the 429 with `Retry-After` here (`'throttled'`: the caller
 * returns the reply); an account under attack waits its slowdown before the check; a wrong
 * password is counted, a right one resets the pair and the account. `hash` null (an unknown
 * email) is checked against a dummy hash of the same cost, and is always wrong.
 */
export function passwordChecker(
  ctx: AuthContext,
): (
  request: FastifyRequest,
  reply: FastifyReply,
  email: string,
  hash: string | null,
  password: string,
) => Promise<PasswordCheck> {
  const { throttle, throttlePolicy } = ctx;
  // Verified against when the email is unknown, so both answers take about as long.
  const dummyHash = argon2.hash(randomBytes(32).toString('hex'), { type: argon2.argon2id });
  dummyHash.catch(() => undefined);

  return async (request, reply, email, hash, password) => {
    const address = throttleAddress(clientAddressOf(request));
    const decision = throttleDecision(await guarded(throttle.read(address, email)), throttlePolicy);
    if (!decision.allowed) {
      request.log.warn({ scope: decision.scope }, 'password check throttled');
      await reply
        .code(429)
        .header('retry-after', String(decision.retryAfterSeconds))
        .send({ error: 'too_many_requests', message: throttleMessage(decision.retryAfterSeconds) });
      return 'throttled';
    }
    // The account's slowdown, before the password is checked: right or wrong, every attempt on
    // an account under attack waits the same (bounded) time.
    if (decision.delayMs > 0) {
      request.log.info({ delayMs: decision.delayMs }, 'password check slowed down');
      await ctx.sleep(decision.delayMs);
    }
    const ok = hash
      ? await argon2.verify(hash, password)
      : await argon2.verify(await dummyHash, password).then(() => false);
    if (!ok) {
      await guarded(throttle.recordFailure(address, email));
      return 'wrong';
    }
    // A reset that fails only leaves the owner slowed a little longer: not worth refusing her.
    await throttle.reset(address, email).catch((err: unknown) => {
      request.log.warn({ err }, 'could not reset the login throttle after a success');
    });
    return 'right';
  };
}
