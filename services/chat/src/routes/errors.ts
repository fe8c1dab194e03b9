import { HttpError } from '@wayfarer/service-kit';
import { ChatRefusedError, type RefusalKind } from '../domain/errors';

const STATUS: Record<RefusalKind, number> = { invalid: 400, forbidden: 403, not_found: 404 };

/** What a chat refusal is in HTTP (anything else as it is). */
export function httpErrorOf(err: unknown): unknown {
  return err instanceof ChatRefusedError ? new HttpError(STATUS[err.kind], err.message) : err;
}
