import { InvalidCredentialsError } from '../domain/errors';
import type { AuthUseCaseDeps, Log } from './deps';

/**
 * Signs a user in: the password checked under the login throttle (an unknown email is checked
 * against a dummy hash, and never said apart from a wrong password: InvalidCredentialsError),
 * then a new session signed and recorded (so it can be revoked with the user's others).
 */
export async function logIn(
  deps: AuthUseCaseDeps,
  input: { email: string; password: string; clientIp: string },
  log: Log,
): Promise<{ userId: string; token: string }> {
  const user = await deps.users.findByEmail(input.email);
  const ok = await deps.passwords(
    {
      clientIp: input.clientIp,
      email: input.email,
      hash: user?.passwordHash ?? null,
      password: input.password,
    },
    log,
  );
  if (!user || !ok) throw new InvalidCredentialsError();
  const session = deps.issueSession(user.id);
  await deps.sessions.record({
    jti: session.claims.jti,
    userId: user.id,
    exp: session.claims.exp,
  });
  return { userId: user.id, token: session.token };
}
