import { z } from 'zod';

/**
 * The keyset cursor of `GET /api/friends`: the last friend id of the page before, made opaque
 * (base64url of `{"after": id}`). It grants nothing (a page only ever holds the caller's own
 * friends), so it is not signed; anything that does not decode to that shape is refused.
 */
const Cursor = z.object({ after: z.string().min(1) }).strict();

export function encodeFriendsCursor(lastFriendId: string): string {
  return Buffer.from(JSON.stringify({ after: lastFriendId }), 'utf8').toString('base64url');
}

/** The friend id a cursor points after, or null when it is not one this service made. */
export function decodeFriendsCursor(cursor: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return null;
  try {
    const parsed = Cursor.safeParse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
    return parsed.success ? parsed.data.after : null;
  } catch {
    return null;
  }
}
