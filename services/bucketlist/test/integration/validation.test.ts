import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BucketListLimits } from '@wayfarer/contracts';
import { newUserId, startBucketList, userWithPlace, type Harness } from './harness';

let h: Harness;
let user: string;
let itemId: string;

beforeAll(async () => {
  h = await startBucketList();
  ({ user, itemId } = await userWithPlace(h));
});

afterAll(async () => {
  await h?.close();
});

const ok = { place: 'Rome, Italy', latitude: 41.9, longitude: 12.5, isVisited: false };

describe('a new place', () => {
  it.each([
    ['no latitude', { ...ok, latitude: undefined }, 'latitude: must be a decimal number'],
    ['no longitude', { ...ok, longitude: undefined }, 'longitude: must be a decimal number'],
    ['a non-numeric latitude', { ...ok, latitude: 'north' }, 'latitude: must be a decimal number'],
    ['a hex longitude', { ...ok, longitude: '0x10' }, 'longitude: must be a decimal number'],
    ['a null latitude', { ...ok, latitude: null }, 'latitude: must be a decimal number'],
    ['latitude 90.5', { ...ok, latitude: 90.5 }, 'latitude: must be between -90 and 90'],
    ['latitude -91', { ...ok, latitude: '-91' }, 'latitude: must be between -90 and 90'],
    ['longitude 180.1', { ...ok, longitude: 180.1 }, 'longitude: must be between -180 and 180'],
    ['longitude -200', { ...ok, longitude: -200 }, 'longitude: must be between -180 and 180'],
    ['an empty place', { ...ok, place: '' }, 'place: Place is required.'],
    ['a blank place', { ...ok, place: '   ' }, 'place: Place is required.'],
    ['no place', { ...ok, place: undefined }, 'place: Place is required.'],
    [
      'a 300-character place',
      { ...ok, place: 'x'.repeat(300) },
      `place: Place must be at most ${BucketListLimits.placeMax} characters.`,
    ],
    [
      'a visited new place',
      { ...ok, isVisited: true },
      'isVisited: A new place cannot already be visited.',
    ],
  ])('is refused with %s, and nothing is written', async (_name, body, message) => {
    const before = await h.counts();
    const res = await h.add(user, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'bad_request', message });
    expect(await h.counts()).toEqual(before);
  });

  it('is refused when the body is not JSON, and nothing is written', async () => {
    const before = await h.counts();
    const res = await h.add(user, '{"place": ');
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(/JSON/);
    expect(await h.counts()).toEqual(before);
  });

  it(`takes a place of exactly ${BucketListLimits.placeMax} characters`, async () => {
    const res = await h.add(newUserId(), { ...ok, place: 'y'.repeat(BucketListLimits.placeMax) });
    expect(res.statusCode).toBe(201);
  });
});

describe('an itinerary', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => `Stop ${i}`);

  it.each([
    ['a string', 'Louvre', 'itinerary: The itinerary must be a list of strings.'],
    ['an object', { 0: 'Louvre' }, 'itinerary: The itinerary must be a list of strings.'],
    ['missing', undefined, 'itinerary: The itinerary must be a list of strings.'],
    ['a list with a number', ['Louvre', 3], 'itinerary.1: Each itinerary item must be text.'],
    ['a list with null', [null], 'itinerary.0: Each itinerary item must be text.'],
    [
      'a list with a blank item',
      ['Louvre', '  '],
      'itinerary.1: An itinerary item cannot be empty.',
    ],
    [
      `${BucketListLimits.itineraryItemsMax + 1} items`,
      items(BucketListLimits.itineraryItemsMax + 1),
      `itinerary: An itinerary holds at most ${BucketListLimits.itineraryItemsMax} items.`,
    ],
    [
      'an item over 500 characters',
      ['z'.repeat(BucketListLimits.itineraryItemMax + 1)],
      `itinerary.0: An itinerary item must be at most ${BucketListLimits.itineraryItemMax} characters.`,
    ],
  ])('is refused when it is %s, and nothing changes', async (_name, itinerary, message) => {
    const before = await h.counts();
    const res = await h.saveItinerary(user, { bucketListId: itemId, itinerary });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'bad_request', message });
    expect((await h.getItinerary(user, itemId)).json()).toEqual({ itinerary: ['Opera'] });
    expect(await h.counts()).toEqual(before);
  });

  it('is refused without a bucketListId', async () => {
    const res = await h.saveItinerary(user, { itinerary: ['Louvre'] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'bad_request',
      message: 'bucketListId: bucketListId is required.',
    });
  });

  it('is refused with a bucketListId no item could have', async () => {
    const res = await h.saveItinerary(user, { bucketListId: 'x'.repeat(101), itinerary: [] });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'bad_request',
      message: 'bucketListId: bucketListId is too long.',
    });
  });

  it('takes the largest legal list', async () => {
    const largest = Array.from({ length: BucketListLimits.itineraryItemsMax }, (_, i) =>
      `${i}`.padEnd(BucketListLimits.itineraryItemMax, 'é'),
    );
    const res = await h.saveItinerary(user, { bucketListId: itemId, itinerary: largest });
    expect(res.statusCode).toBe(200);
    expect((await h.getItinerary(user, itemId)).json()).toEqual({ itinerary: largest });
  });
});
