import { z } from 'zod';

/**
 * A keyset cursor over a list ordered newest first by (time, id) (notifications,
 * social's feed): the last item of the page before, made opaque (base64url of
 * `{"at": ISO time, "id": id}`). It grants nothing (a page only ever holds the caller's own
 * items), so it is not signed; anything that does not decode to that shape is refused (null),
 * and the route answers 400. Times are kept to the millisecond (a Date's precision): the lists
 * that use it store event times, which have no more.
 */
export interface TimeCursor {
  at: Date;
  id: string;
}

const Cursor = z.object({ at: z.iso.datetime(), id: z.string().min(1).max(200) }).strict();

export function encodeTimeCursor(cursor: TimeCursor): string {
  const json = JSON.stringify({ at: cursor.at.toISOString(), id: cursor.id });
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** The item a cursor points after, or null when it is not one `encodeTimeCursor` made. */
export function decodeTimeCursor(cursor: string): TimeCursor | null {
  if (cursor.length > 400 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const json: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const parsed = Cursor.safeParse(json);
    return parsed.success ? { at: new Date(parsed.data.at), id: parsed.data.id } : null;
  } catch {
    return null;
  }
}

/**
 * A page size query parameter (`?limit=`): a whole number from 1 to `max`, else 400 with
 * `message`; optional (the route has its default).
 */
export function pageLimitParam(max: number, message: string) {
  return z
    .string()
    .regex(/^[0-9]{1,4}$/, message)
    .transform(Number)
    .pipe(z.number().int().min(1, message).max(max, message))
    .optional();
}
