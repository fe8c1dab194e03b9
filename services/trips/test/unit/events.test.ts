import { describe, expect, it } from 'vitest';
import { EventEnvelope, isPendingPhotoUrl, Topics, Trip, TripSummary } from '@wayfarer/contracts';
import { IMAGE_TYPES } from '@wayfarer/storage/image';
import {
  destinationSummaries,
  tripCreatedEvent,
  tripDeletedEvent,
  tripUpdatedEvent,
} from '../../src/domain/events';
import {
  findPhoto,
  isPhotoId,
  isTripId,
  newId,
  newPhotoId,
  newTripDoc,
  photoKeys,
  photoPosition,
  toApiTrip,
  toTripSummary,
  tripPrefix,
  tripSummariesJson,
  tripSummaryJson,
  type PhotoDoc,
} from '../../src/domain/trip';
import { tripCreatedEntry, tripDeletedEntry } from '../../src/events/outbox';

const NOW = new Date('2025-03-09T10:00:00.000Z');
const tripId = 'aaaaaaaaaaaaaaaaaaaaaaaa';

function photo(id: string): PhotoDoc {
  const keys = photoKeys(tripId, id, IMAGE_TYPES.jpeg, IMAGE_TYPES.webp);
  return {
    id,
    original: { key: keys.original, contentType: 'image/jpeg', bytes: 1000 },
    display: { key: keys.display, contentType: 'image/webp', bytes: 100, width: 10, height: 10 },
  };
}

const p1 = 'b'.repeat(32);
const p2 = 'c'.repeat(32);
const trip = newTripDoc({
  id: tripId,
  ownerId: 'owner-1',
  input: {
    visibility: 'friends',
    name: 'Summer',
    startDate: '2024-07-01',
    endDate: '2024-07-20',
    destinations: [
      {
        name: 'Paris',
        latitude: 48.85,
        longitude: 2.35,
        startDate: '2024-07-01',
        endDate: '2024-07-05',
        story: 'é'.repeat(150),
      },
      {
        name: 'Lyon',
        latitude: 45.76,
        longitude: 4.83,
        startDate: '2024-07-06',
        endDate: '2024-07-20',
        story: 'Short.',
      },
    ],
  },
  destinationIds: ['d'.repeat(24), 'e'.repeat(24)],
  photos: [[photo(p1), photo(p2)], []],
  now: NOW,
});

describe('trip documents and the API shape', () => {
  it('toApiTrip answers the spec fields with photo URLs, no owner, keys or outbox', () => {
    const api = toApiTrip(trip);
    expect(Trip.parse(api)).toEqual(api);
    expect(Object.keys(api).sort()).toEqual([
      '_id',
      'destinations',
      'endDate',
      'name',
      'startDate',
      'visibility',
    ]);
    expect(api.visibility).toBe('friends');
    expect(Object.keys(api.destinations[0]!).sort()).toEqual([
      '_id',
      'endDate',
      'latitude',
      'longitude',
      'name',
      'photos',
      'startDate',
      'story',
    ]);
    expect(api.destinations[0]!.photos).toEqual([
      `/api/photos/${tripId}/${p1}`,
      `/api/photos/${tripId}/${p2}`,
    ]);
    expect(api.destinations[1]!.photos).toEqual([]);
    expect(trip).toMatchObject({ ownerId: 'owner-1', createdAt: NOW, deletedAt: null });
  });

  it('object keys: original and display per photo, all under the trip prefix', () => {
    const keys = trip.destinations.flatMap((d) =>
      d.photos.flatMap((p) => [p.original.key, p.display!.key]),
    );
    expect(keys).toEqual([
      `${tripId}/${p1}/original.jpg`,
      `${tripId}/${p1}/display.webp`,
      `${tripId}/${p2}/original.jpg`,
      `${tripId}/${p2}/display.webp`,
    ]);
    // removing a trip's objects is removing its prefix
    for (const key of keys) expect(key.startsWith(tripPrefix(tripId))).toBe(true);
    expect(findPhoto(trip, p2)?.display?.key).toBe(`${tripId}/${p2}/display.webp`);
    expect(findPhoto(trip, 'f'.repeat(32))).toBeNull();
  });

  it('ids are made and checked strictly', () => {
    expect(isTripId(newId())).toBe(true);
    expect(isPhotoId(newPhotoId())).toBe(true);
    expect(newId()).not.toBe(newId());
    for (const bad of [
      '',
      'x',
      'A'.repeat(24),
      `${'a'.repeat(23)}/`,
      '../etc/passwd',
      'a'.repeat(25),
    ]) {
      expect(isTripId(bad)).toBe(false);
    }
    expect(isPhotoId('a'.repeat(31))).toBe(false);
    expect(isPhotoId('a'.repeat(24))).toBe(false);
  });
});

describe('events', () => {
  it('destination summaries: ids, coordinates, dates, photo URLs, story preview of 100 characters', () => {
    const [paris, lyon] = destinationSummaries(trip);
    expect(paris).toEqual({
      id: 'd'.repeat(24),
      name: 'Paris',
      latitude: 48.85,
      longitude: 2.35,
      startDate: '2024-07-01',
      endDate: '2024-07-05',
      photos: [`/api/photos/${tripId}/${p1}`, `/api/photos/${tripId}/${p2}`],
      storyPreview: `${'é'.repeat(100)}...`,
    });
    expect(lyon!.storyPreview).toBe('Short.');
  });

  it('trip.created: envelope keyed by trip id, with the trip and its destinations', () => {
    const event = tripCreatedEvent(trip, NOW);
    expect(EventEnvelope.parse(event)).toBeTruthy();
    expect(event).toMatchObject({
      type: 'trip.created',
      version: 1,
      aggregateId: tripId,
      occurredAt: NOW.toISOString(),
      payload: {
        tripId,
        ownerId: 'owner-1',
        name: 'Summer',
        startDate: '2024-07-01',
        endDate: '2024-07-20',
        destinations: destinationSummaries(trip),
        visibility: 'friends',
      },
    });
    const secret = tripCreatedEvent({ ...trip, visibility: 'private' }, NOW);
    expect(secret.payload.visibility).toBe('private');
  });

  it('trip.updated carries the visibility after the change', () => {
    const event = tripUpdatedEvent(
      {
        trip: { ...trip, version: 2, visibility: 'private' },
        addedDestinationIds: [],
        movedDestinationIds: [],
        removedDestinationIds: [],
        removedPhotoIds: [],
      },
      NOW,
    );
    expect(event).toMatchObject({
      type: 'trip.updated',
      payload: { tripId, version: 2, visibility: 'private' },
    });
  });

  it('trip.deleted: the same destination summaries', () => {
    const event = tripDeletedEvent(trip, NOW);
    expect(event).toMatchObject({
      type: 'trip.deleted',
      aggregateId: tripId,
      payload: { tripId, ownerId: 'owner-1', destinations: destinationSummaries(trip) },
    });
    expect(Object.keys(event.payload).sort()).toEqual(['destinations', 'ownerId', 'tripId']);
  });

  it('outbox entries go to trips.trip.v1 keyed by the trip id', () => {
    for (const entry of [tripCreatedEntry(trip, NOW), tripDeletedEntry(trip, NOW)]) {
      expect(entry).toMatchObject({ topic: Topics.tripsTrip, key: tripId, id: entry.envelope.id });
    }
  });
});

describe('photos whose display variant is not made yet', () => {
  const pending = (id: string): PhotoDoc => ({ ...photo(id), display: null });
  const doc = newTripDoc({
    id: tripId,
    ownerId: 'owner-1',
    input: {
      visibility: 'friends',
      name: 'New',
      startDate: '2024-07-01',
      endDate: '2024-07-02',
      destinations: [
        {
          name: 'Oslo',
          latitude: 59.9,
          longitude: 10.7,
          startDate: '2024-07-01',
          endDate: '2024-07-02',
          story: 'x'.repeat(120),
        },
      ],
    },
    destinationIds: ['d'.repeat(24)],
    photos: [[pending(p1), photo(p2)]],
    now: NOW,
  });

  it('are listed in pendingVariants; a trip with none has no such field', () => {
    expect(doc.pendingVariants).toEqual([p1]);
    expect(trip.pendingVariants).toBeUndefined();
    expect(photoPosition(doc, p2)).toEqual({ destination: 0, photo: 1 });
    expect(photoPosition(doc, 'f'.repeat(32))).toBeNull();
  });

  it('the API names them with the pending query; events with their plain URL', () => {
    const [first, second] = toApiTrip(doc).destinations[0]!.photos;
    expect(first).toBe(`/api/photos/${tripId}/${p1}?pending=1`);
    expect(isPendingPhotoUrl(first!)).toBe(true);
    expect(second).toBe(`/api/photos/${tripId}/${p2}`);
    expect(isPendingPhotoUrl(second!)).toBe(false);
    expect(destinationSummaries(doc)[0]!.photos).toEqual([
      `/api/photos/${tripId}/${p1}`,
      `/api/photos/${tripId}/${p2}`,
    ]);
  });

  it('the summary: spec fields, the story preview, the first photo only', () => {
    const summary = toTripSummary(doc);
    expect(TripSummary.parse(summary)).toEqual(summary);
    expect(summary.visibility).toBe(doc.visibility);
    expect(toTripSummary({ ...doc, visibility: 'private' }).visibility).toBe('private');
    expect(summary.destinations[0]).toEqual({
      _id: 'd'.repeat(24),
      name: 'Oslo',
      latitude: 59.9,
      longitude: 10.7,
      startDate: '2024-07-01',
      endDate: '2024-07-02',
      photos: [`/api/photos/${tripId}/${p1}?pending=1`],
      story: `${'x'.repeat(100)}...`,
    });
  });

  it('the list body: the stored summaries as a JSON array, pending photos named so', () => {
    // stored with plain URLs (pendingVariants says which are pending)
    const stored = { ...doc, summaryJson: tripSummaryJson(doc) };
    expect(JSON.parse(stored.summaryJson.toString())).toEqual(
      toTripSummary({ ...doc, pendingVariants: undefined }),
    );
    const ready = { _id: trip._id, summaryJson: tripSummaryJson(trip) };
    const body = tripSummariesJson([stored, ready]).toString();
    expect(JSON.parse(body)).toEqual([toTripSummary(doc), toTripSummary(trip)]);
    expect(toTripSummary(doc).destinations[0]!.photos).toEqual([
      `/api/photos/${tripId}/${p1}?pending=1`,
    ]);
    expect(tripSummariesJson([]).toString()).toBe('[]');
  });
});
