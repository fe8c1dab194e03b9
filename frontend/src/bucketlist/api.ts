import type { BucketListItem, ItineraryInput, NewBucketListItem } from '@wayfarer/contracts';
import { apiFetch } from '../api/client';

/**
 * The bucket list's calls, answers as the contract types them:
 * `GET/POST /api/bucketlist`, `DELETE /api/bucketlist/{id}` (marks the place visited),
 * `GET /api/itinerary/{bucketListId}`, `POST /api/itinerary` (the full list).
 */

const isItem = (value: unknown): value is BucketListItem => {
  const v = value as Partial<BucketListItem> | null;
  return (
    !!v &&
    typeof v._id === 'string' &&
    typeof v.place === 'string' &&
    typeof v.latitude === 'number' &&
    typeof v.longitude === 'number'
  );
};

/** Every item of the signed-in user, visited ones included (the screen sorts them). */
export async function fetchBucketList(signal?: AbortSignal): Promise<BucketListItem[]> {
  const answer = await apiFetch<unknown>('/api/bucketlist', { signal });
  if (!Array.isArray(answer)) throw new Error('Unexpected bucket list answer');
  return answer.filter(isItem).map((item) => ({ ...item, isVisited: item.isVisited === true }));
}

export async function addBucketItem(place: Omit<NewBucketListItem, 'isVisited'>) {
  const answer = await apiFetch<{ data?: unknown }>('/api/bucketlist', {
    method: 'POST',
    json: { ...place, isVisited: false },
    idempotent: true,
  });
  if (!isItem(answer?.data)) throw new Error('Unexpected answer to adding a place');
  return answer.data;
}

/** Ticks a place off: the server keeps it, marked visited, and answers it. */
export async function tickOffBucketItem(id: string): Promise<BucketListItem | null> {
  const answer = await apiFetch<{ data?: unknown } | null>(
    `/api/bucketlist/${encodeURIComponent(id)}`,
    { method: 'DELETE' },
  );
  return isItem(answer?.data) ? answer.data : null;
}

export async function fetchItinerary(id: string, signal?: AbortSignal): Promise<string[]> {
  const answer = await apiFetch<{ itinerary?: unknown } | null>(
    `/api/itinerary/${encodeURIComponent(id)}`,
    { signal },
  );
  const list = answer?.itinerary;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new Error('Unexpected itinerary answer');
  return list.filter((x): x is string => typeof x === 'string');
}

export async function saveItinerary(body: ItineraryInput): Promise<void> {
  await apiFetch('/api/itinerary', { method: 'POST', json: body });
}
