/*
 * What places refuses, as errors of its own: the routes say what each is in HTTP
 * (`routes/errors.ts`); nothing here knows about status codes.
 */

/** The city index is still being built (or could not be): no search can be answered yet. */
export class IndexNotReadyError extends Error {
  override readonly name = 'IndexNotReadyError';

  constructor() {
    super('the city index is not ready');
  }
}
