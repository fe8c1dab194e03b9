import { ImportErrors, ShareMessages, TripEditErrors, TripEditMessages } from '@wayfarer/contracts';
import { HttpError, notFound } from '@wayfarer/service-kit';
import {
  ImportLimitError,
  ImportRateError,
  InvalidTripError,
  NotFoundError,
  StaleTripError,
  UnavailableError,
} from '../domain/errors';
import { Messages } from '../domain/limits';

const notFoundMessages: Record<NotFoundError['what'], string> = {
  trip: Messages.tripNotFound,
  destination: Messages.destinationNotFound,
  photo: Messages.photoNotFound,
  'share-link': ShareMessages.noLink,
  shared: ShareMessages.linkGone,
};

/** What a domain error is in HTTP (anything else as it is). */
export function httpErrorOf(err: unknown): unknown {
  if (err instanceof InvalidTripError) return new HttpError(400, err.message);
  // a file asking for more than an import may do; a user past their imports' rate
  // (the route sets its Retry-After)
  if (err instanceof ImportLimitError) return new HttpError(413, err.message, ImportErrors.limit);
  if (err instanceof ImportRateError) return new HttpError(429, err.message, ImportErrors.rate);
  if (err instanceof NotFoundError) return notFound(notFoundMessages[err.what]);
  if (err instanceof UnavailableError) return new HttpError(503, err.message);
  if (err instanceof StaleTripError) {
    return new HttpError(412, TripEditMessages.changedElsewhere, TripEditErrors.changed);
  }
  return err;
}

/** Runs `fn`, its domain errors thrown as HTTP errors (for callbacks run outside a handler). */
export function withHttpErrors<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw httpErrorOf(err);
  }
}
