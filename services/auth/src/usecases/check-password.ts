import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import {
  PasswordCheckThrottledError,
  ThrottleUnavailableError,
  UserNotFoundError,
  WrongPasswordError,
} from '../domain/errors';
import { throttleAddress, throttleDecision, type ThrottlePolicy } from '../domain/throttle';
import type { LoginThrottleStore } from '../store/login-throttle';
import { RedisUnavailableError } from '../store/redis';
import type { User } from '../store/users';
import type { AuthUseCaseDeps, Log, PasswordChecker } from './deps';

/**
 * Without its counters the throttle cannot protect against guessing, so no password is
 * checked: the caller answers at once, naming the cause.
 */
async function guarded<T>(op: Promise<T>): Promise<T> {
  try {
    return await op;
  } catch (err) {
    if (err instanceof RedisUnavailableError) {
      throw new ThrottleUnavailableError(err.message, { cause: err });
    }
    throw err;
  }
}

/**
 * The one throttled password check: login, the password change and the closing share its
 * counters, so a guess through any of them counts. A blocked address is refused before any
 * check; an account under attack waits its slowdown first, right password or wrong; a wrong
 * password is counted, a right one resets the pair and the account.
 */
export function passwordChecker(deps: {
  throttle: LoginThrottleStore;
  policy: ThrottlePolicy;
  sleep: (ms: number) => Promise<void>;
}): PasswordChecker {
  const { throttle, policy } = deps;
  // Verified against when the email is unknown, so both answers take about as long.
  const dummyHash = argon2.hash(randomBytes(32).toString('hex'), { type: argon2.argon2id });
  dummyHash.catch(() => undefined);

  return async ({ clientIp, email, hash, password }, log) => {
    const address = throttleAddress(clientIp);
    const decision = throttleDecision(await guarded(throttle.read(address, email)), policy);
    if (!decision.allowed) {
      log.warn({ scope: decision.scope }, 'password check throttled');
      throw new PasswordCheckThrottledError(decision.retryAfterSeconds);
    }
    // The account's slowdown, before the password is checked: right or wrong, every attempt on
    // an account under attack waits the same (bounded) time.
    if (decision.delayMs > 0) {
      log.info({ delayMs: decision.delayMs }, 'password check slowed down');
      await deps.sleep(decision.delayMs);
    }
    const ok = hash
      ? await argon2.verify(hash, password)
      : await argon2.verify(await dummyHash, password).then(() => false);
    if (!ok) {
      await guarded(throttle.recordFailure(address, email));
      return false;
    }
    // A reset that fails only leaves the owner slowed a little longer: not worth refusing her.
    await throttle.reset(address, email).catch((err: unknown) => {
      log.warn({ err }, 'could not reset the login throttle after a success');
    });
    return true;
  };
}

/** A new password's hash (argon2id, the library's default cost). */
export const hashPassword = (password: string): Promise<string> =>
  argon2.hash(password, { type: argon2.argon2id });

/**
 * The signed-in user, once the password they gave is confirmed under the login throttle (a
 * password change, a closing): UserNotFoundError when the account is gone, WrongPasswordError
 * when the password is wrong.
 */
export async function confirmOwnPassword(
  deps: Pick<AuthUseCaseDeps, 'users' | 'passwords'>,
  userId: string,
  attempt: { password: string; clientIp: string },
  log: Log,
): Promise<User> {
  const user = await deps.users.findById(userId);
  if (!user) throw new UserNotFoundError();
  const ok = await deps.passwords({ ...attempt, email: user.email, hash: user.passwordHash }, log);
  if (!ok) throw new WrongPasswordError();
  return user;
}
