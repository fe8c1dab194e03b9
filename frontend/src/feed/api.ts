import type { FeedResponse } from '@wayfarer/contracts';
import { apiFetch } from '../api/client';

export type { FeedItem } from '@wayfarer/contracts';

/**
 * `GET /api/feed?cursor=` (social): one page of friends' trips, newest first, and the
 * cursor of the next page (null on the last).
 */
export async function fetchFeed(
  cursor: string | null,
  signal?: AbortSignal,
): Promise<FeedResponse> {
  const url = cursor === null ? '/api/feed' : `/api/feed?cursor=${encodeURIComponent(cursor)}`;
  const answer = await apiFetch<Partial<FeedResponse> | null>(url, { signal });
  if (!answer || !Array.isArray(answer.items)) throw new Error('Unexpected feed answer');
  return { items: answer.items, nextCursor: answer.nextCursor ?? null };
}
