/*
 * What auth refuses, as errors of its own: the routes say what each is in HTTP
 * (`routes/errors.ts`); nothing here knows about status codes.
 */

/** An error of auth's own: named after its class, its message that name unless given. */
abstract class AuthError extends Error {
  constructor(message?: string, options?: ErrorOptions) {
    super(message ?? new.target.name, options);
    this.name = new.target.name;
  }
}

/** The signed-in user's account does not exist (closed meanwhile). */
export class UserNotFoundError extends AuthError {}

/** The email (in any case) already has an account. */
export class DuplicateEmailError extends AuthError {}

/** The profile picture could not be decoded as one of the accepted image types. */
export class PictureRejectedError extends AuthError {}

/** Login: an unknown email or a wrong password (never said which). */
export class InvalidCredentialsError extends AuthError {}

/** A password change or a closing: the current password given is wrong. */
export class WrongPasswordError extends AuthError {}

/** Too many failed password checks from this address: none is checked for `retryAfterSeconds`. */
export class PasswordCheckThrottledError extends AuthError {
  constructor(readonly retryAfterSeconds: number) {
    super(`password checks throttled for ${retryAfterSeconds} s`);
  }
}

/**
 * The login throttle's counters cannot be read or written (Redis is unreachable): without them
 * guessing is unguarded, so no password is checked.
 */
export class ThrottleUnavailableError extends AuthError {}

/** A logout whose revocation could not be recorded in PostgreSQL (the durable record). */
export class LogoutNotRecordedError extends AuthError {}

/** An avatar address that auth could not have made. */
export class InvalidAvatarAddressError extends AuthError {}

/** An avatar whose account is closed (fenced before its objects are removed). */
export class AvatarNotFoundError extends AuthError {}
