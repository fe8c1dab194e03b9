/*
 * What journal refuses, as errors of its own: routes/errors.ts says what each is in HTTP;
 * nothing here knows about status codes.
 */

/** The caller may not see this journal (unknown, deleted, or not theirs to read). */
export class JournalNotFoundError extends Error {
  override readonly name = 'JournalNotFoundError';
}

/** The caller may read this journal but not change it (a friend of its owner). */
export class OwnerOnlyError extends Error {
  override readonly name = 'OwnerOnlyError';
}
