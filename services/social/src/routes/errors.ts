import { SocialMessages, StatsMessages } from '@wayfarer/contracts';
import { badRequest, HttpError, notFound } from '@wayfarer/service-kit';
import { AddFriendRefusedError, NotFoundError, type Missing } from '../domain/errors';

const notFoundMessages: Record<Missing, string> = {
  request: SocialMessages.requestNotFound,
  friendship: SocialMessages.notFriends,
  user: SocialMessages.userNotFound,
  destination: SocialMessages.destinationNotFound,
  friendStats: StatsMessages.friendNotFound,
};

/** What a domain error is in HTTP (anything else as it is). */
export function httpErrorOf(err: unknown): unknown {
  if (err instanceof NotFoundError) return notFound(notFoundMessages[err.what]);
  if (err instanceof AddFriendRefusedError) {
    return err.reason === 'yourself'
      ? badRequest(SocialMessages.notYourself)
      : new HttpError(409, SocialMessages.alreadyFriends);
  }
  return err;
}
