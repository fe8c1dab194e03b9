import type { FastifyReply } from 'fastify';
import { AccountMessages } from '@wayfarer/contracts';
import { HttpError, notFound } from '@wayfarer/service-kit';
import {
  AvatarNotFoundError,
  DuplicateEmailError,
  InvalidAvatarAddressError,
  InvalidCredentialsError,
  LogoutNotRecordedError,
  PasswordCheckThrottledError,
  PictureRejectedError,
  ThrottleUnavailableError,
  UserNotFoundError,
  WrongPasswordError,
} from '../domain/errors';
import {
  AVATAR_NOT_FOUND_MESSAGE,
  INVALID_AVATAR_ADDRESS_MESSAGE,
  INVALID_LOGIN_MESSAGE,
  LOGIN_UNAVAILABLE_MESSAGE,
  LOGOUT_UNAVAILABLE_MESSAGE,
  USER_NOT_FOUND_MESSAGE,
} from '../domain/messages';
import { DUPLICATE_EMAIL_MESSAGE, NOT_AN_IMAGE_MESSAGE } from '../domain/registration';
import { throttleMessage } from '../domain/throttle';

/** What an auth error is in HTTP (anything else as it is); a refusal's headers go on `reply`. */
export function httpErrorOf(err: unknown, reply: FastifyReply): unknown {
  if (err instanceof UserNotFoundError) return notFound(USER_NOT_FOUND_MESSAGE);
  if (err instanceof DuplicateEmailError) return new HttpError(409, DUPLICATE_EMAIL_MESSAGE);
  if (err instanceof PictureRejectedError) return new HttpError(400, NOT_AN_IMAGE_MESSAGE);
  if (err instanceof InvalidCredentialsError) {
    return new HttpError(401, INVALID_LOGIN_MESSAGE, 'invalid_credentials');
  }
  if (err instanceof WrongPasswordError) {
    return new HttpError(400, AccountMessages.wrongPassword, 'invalid_password');
  }
  if (err instanceof PasswordCheckThrottledError) {
    reply.header('retry-after', String(err.retryAfterSeconds));
    return new HttpError(429, throttleMessage(err.retryAfterSeconds));
  }
  // the login throttle's counters are gone with Redis: a fast answer naming the cause
  if (err instanceof ThrottleUnavailableError) {
    return new HttpError(503, LOGIN_UNAVAILABLE_MESSAGE, 'service_unavailable');
  }
  if (err instanceof LogoutNotRecordedError) {
    return new HttpError(503, LOGOUT_UNAVAILABLE_MESSAGE, 'service_unavailable');
  }
  if (err instanceof InvalidAvatarAddressError) {
    return new HttpError(400, INVALID_AVATAR_ADDRESS_MESSAGE);
  }
  if (err instanceof AvatarNotFoundError) return notFound(AVATAR_NOT_FOUND_MESSAGE);
  return err;
}
