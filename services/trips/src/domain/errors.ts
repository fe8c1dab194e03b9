/*
 * What the domain refuses, as errors of its own: the routes say what each is in HTTP
 * (`routes/errors.ts`); nothing here knows about status codes.
 */

/** The request breaks a rule of trips (a form, a patch, a limit): nothing was changed. */
export class InvalidTripError extends Error {
  override readonly name = 'InvalidTripError';
}

/**
 * What the caller named does not exist for them (someone else's trip is one of these).
 * `share-link`: the owner's trip has no live link; `shared`: a visitor's link does not work
 * (malformed, unknown, revoked, expired, or what it names is not in its trip).
 */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';

  constructor(readonly what: 'trip' | 'destination' | 'photo' | 'share-link' | 'shared') {
    super(`${what} not found`);
  }
}

/** The trip changed since the version the change was made to (another tab saved first). */
export class StaleTripError extends Error {
  override readonly name = 'StaleTripError';

  constructor(readonly current: number) {
    super(`the trip is at version ${current}`);
  }
}

/**
 * An import asks for more than one import may do (contracts' `ImportLimits`: trips, places,
 * photos, uncompressed bytes, reading time): refused before anything is created, the message
 * naming the limit.
 */
export class ImportLimitError extends Error {
  override readonly name = 'ImportLimitError';
}

/**
 * The user started `ImportLimits.perUserPerHour` imports within the last
 * `ImportLimits.rateWindowMs`: the next one may start in `retryAfterMs`.
 */
export class ImportRateError extends Error {
  override readonly name = 'ImportRateError';

  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

/**
 * The work cannot be done now and may be retried (photo storage down, an upload's or an
 * import's lease lost, a trip that kept changing under a write): nothing was left half done.
 */
export class UnavailableError extends Error {
  override readonly name = 'UnavailableError';
}
