import { z } from 'zod';
import { describeZodError, HttpError } from '@wayfarer/service-kit';
import { httpErrorOf } from '../src/routes/errors';

/**
 * What the app answers for what `fn` refuses: a domain error as `routes/errors.ts` maps it, a
 * ZodError as service-kit's error handler does (a 400 naming each field). Fails the test when
 * `fn` refuses nothing.
 */
export function refusal(fn: () => unknown): { statusCode: number; message: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof z.ZodError) return { statusCode: 400, message: describeZodError(err) };
    const mapped = httpErrorOf(err);
    if (mapped instanceof HttpError) return mapped;
    throw err;
  }
  throw new Error('expected a refusal');
}
