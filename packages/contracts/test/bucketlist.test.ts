import { describe, expect, it } from 'vitest';
import { BucketListLimits, ItineraryInput, NewBucketListItem } from '../src';

const messages = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  result.error?.issues.map((i) => `${i.path.join('.')}: ${i.message}`);

describe('bucket list inputs', () => {
  it('takes a trimmed place and decimal coordinates, as text or numbers', () => {
    expect(
      NewBucketListItem.parse({
        place: ' Paris ',
        latitude: '48.85',
        longitude: 2.35,
        isVisited: false,
      }),
    ).toEqual({ place: 'Paris', latitude: 48.85, longitude: 2.35, isVisited: false });
  });

  it('refuses an empty or too long place, bad coordinates and a visited new item', () => {
    const ok = { place: 'Paris', latitude: 1, longitude: 2 };
    expect(messages(NewBucketListItem.safeParse({ ...ok, place: '  ' }))).toEqual([
      'place: Place is required.',
    ]);
    expect(messages(NewBucketListItem.safeParse({ ...ok, place: 'x'.repeat(300) }))).toEqual([
      `place: Place must be at most ${BucketListLimits.placeMax} characters.`,
    ]);
    expect(messages(NewBucketListItem.safeParse({ place: 'Paris', longitude: 2 }))).toEqual([
      'latitude: must be a decimal number',
    ]);
    expect(messages(NewBucketListItem.safeParse({ ...ok, longitude: '1e2' }))).toEqual([
      'longitude: must be a decimal number',
    ]);
    expect(messages(NewBucketListItem.safeParse({ ...ok, latitude: -90.5 }))).toEqual([
      'latitude: must be between -90 and 90',
    ]);
    expect(messages(NewBucketListItem.safeParse({ ...ok, isVisited: true }))).toEqual([
      'isVisited: A new place cannot already be visited.',
    ]);
  });

  it('takes an itinerary of trimmed non-empty strings within the limits', () => {
    expect(ItineraryInput.parse({ bucketListId: 'a', itinerary: [' Louvre '] })).toEqual({
      bucketListId: 'a',
      itinerary: ['Louvre'],
    });
    const bad = (itinerary: unknown) =>
      messages(ItineraryInput.safeParse({ bucketListId: 'a', itinerary }));
    expect(bad('Louvre')).toEqual(['itinerary: The itinerary must be a list of strings.']);
    expect(bad([1])).toEqual(['itinerary.0: Each itinerary item must be text.']);
    expect(bad([' '])).toEqual(['itinerary.0: An itinerary item cannot be empty.']);
    expect(bad(Array.from({ length: 101 }, () => 'a'))).toEqual([
      'itinerary: An itinerary holds at most 100 items.',
    ]);
    expect(bad(['x'.repeat(501)])).toEqual([
      'itinerary.0: An itinerary item must be at most 500 characters.',
    ]);
  });
});
