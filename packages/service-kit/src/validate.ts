import type { z } from 'zod';
import { describeZodError, HttpError } from './errors';

/** Validates `data` against `schema`, throwing a 400 HttpError with a readable message. */
export function parse<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (!result.success) throw new HttpError(400, describeZodError(result.error));
  return result.data;
}
