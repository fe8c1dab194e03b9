import { HttpError } from '@wayfarer/service-kit';
import { JournalMessages } from '../domain/access';
import { JournalNotFoundError, OwnerOnlyError } from '../domain/errors';

/** What a journal error is in HTTP (anything else as it is). */
export function httpErrorOf(err: unknown): unknown {
  if (err instanceof JournalNotFoundError) return new HttpError(404, JournalMessages.notFound);
  if (err instanceof OwnerOnlyError) return new HttpError(403, JournalMessages.ownerOnly);
  return err;
}
