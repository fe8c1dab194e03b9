import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import {
  TRIP_PHOTOS_FIELD,
  Topics,
  tripETag,
  type Trip,
  type TripPatch,
} from '@wayfarer/contracts';
import { readTopicToEnd } from '@wayfarer/test-kit';
import { png } from '../fixtures';
import {
  as,
  multipart,
  postTrip,
  startTrips,
  tripFields,
  type FilePart,
  type Harness,
} from './harness';

export let h: Harness;
export let image: Buffer;

export const photo = (name = 'p.png'): FilePart => ({
  field: TRIP_PHOTOS_FIELD,
  data: image,
  filename: name,
  type: 'image/png',
});

export const get = (owner: string, id: string) =>
  h.app.inject({ url: `/api/trips/${id}`, headers: as(owner) });

/** A trip of three destinations (Oslo with two photos, Bergen with one, Tromsø with none). */
export async function createTrip(owner: string): Promise<{ trip: Trip; etag: string }> {
  const res = await postTrip(
    h.app,
    owner,
    tripFields({ name: 'North', startDate: '2026-06-01', endDate: '2026-06-20' }, [
      { name: 'Oslo', latitude: '59.91', longitude: '10.75', story: 'Fjord' },
      { name: 'Bergen', latitude: '60.39', longitude: '5.32' },
      { name: 'Tromsø', latitude: '69.65', longitude: '18.96' },
    ]),
    [
      { field: 'photos[0]', data: image, filename: 'a.png', type: 'image/png' },
      { field: 'photos[0]', data: image, filename: 'b.png', type: 'image/png' },
      { field: 'photos[1]', data: image, filename: 'c.png', type: 'image/png' },
    ],
  );
  expect(res.statusCode, res.body).toBe(201);
  expect(res.headers.etag).toBe(tripETag(1));
  await h.variants.idle();
  // as the edit screen has it: the variants made (plain photo URLs), the version unchanged
  const made = await get(owner, res.json<Trip>()._id);
  expect(made.headers.etag).toBe(tripETag(1));
  return { trip: made.json<Trip>(), etag: made.headers.etag as string };
}

export const patch = (owner: string, id: string, body: TripPatch | string, ifMatch?: string) =>
  h.app.inject({
    method: 'PATCH',
    url: `/api/trips/${id}`,
    headers: {
      ...as(owner),
      'content-type': 'application/json',
      ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }),
    },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });

export async function addPhotos(
  owner: string,
  tripId: string,
  destinationId: string,
  files: FilePart[],
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const body = await multipart([], files);
  return h.app.inject({
    method: 'POST',
    url: `/api/trips/${tripId}/destinations/${destinationId}/photos`,
    payload: body.payload,
    headers: { ...body.headers, ...as(owner), ...headers },
  });
}

export const removePhoto = (owner: string, url: string, ifMatch: string) =>
  h.app.inject({ method: 'DELETE', url, headers: { ...as(owner), 'if-match': ifMatch } });

/** The photo id of a photo URL (`/api/photos/<trip>/<photo>[?pending=1]`). */
export const photoIdOf = (url: string) => url.split('?')[0]!.split('/').pop()!;

/** The bucket's objects under a trip (every variant of every photo). */
export const objectsOf = (tripId: string) => h.photos.list(`${tripId}/`);

/** A trip's stored version and outbox state (what a refused request must leave as it was). */
export async function stored(tripId: string) {
  const doc = await h.trips.collection.findOne({ _id: tripId });
  return { version: doc?.version, name: doc?.name, destinations: doc?.destinations };
}

export interface Envelope {
  id: string;
  type: string;
  aggregateId: string;
  payload: Record<string, unknown> & { version?: number };
}

/** The trip's events once its outbox is empty (each once: the relay sends at least once). */
export async function eventsOf(tripId: string): Promise<Envelope[]> {
  await expect
    .poll(() => h.trips.collection.countDocuments({ _id: tripId, outboxPending: true }), {
      message: 'the relay to publish the trip’s events',
      timeout: 20_000,
    })
    .toBe(0);
  const seen = new Set<string>();
  return (await readTopicToEnd(Topics.tripsTrip))
    .map((m) => m.json as Envelope | null)
    .filter((e): e is Envelope => e?.aggregateId === tripId && !seen.has(e.id) && !!seen.add(e.id));
}

/** Boots trips for the test file that calls it (once, before its tests), and closes it after. */
export function useEditsHarness(): void {
  beforeAll(async () => {
    h = await startTrips();
    image = await png(64, 48);
  });
  afterAll(async () => {
    await h?.close();
  });
}
