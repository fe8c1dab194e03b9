import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as, startBucketList, userWithPlace, type Harness } from './harness';

/*
 * Every text input of bucketlist is plain text (contracts' `plainText`): a control
 * character, DEL or a lone surrogate is a 400 naming the field, before PostgreSQL sees it
 * (it refuses NUL in text: that was a 500), and nothing is written.
 */

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
const CONTROL =
  /must not contain control characters( \(only tabs and line breaks are\))?: found U\+00(00|7F|0A|09) at position \d+\./;
const SURROGATE = /must be valid Unicode text: found a lone surrogate U\+D800 at position \d+\./;

describe('POST /api/bucketlist', () => {
  it.each([
    ['a NUL in place', { ...ok, place: 'Ro\u0000me' }, /^place: /, CONTROL],
    ['a DEL in place', { ...ok, place: 'Rome\u007f' }, /^place: /, CONTROL],
    ['a line break in place', { ...ok, place: 'Rome\nItaly' }, /^place: /, CONTROL],
    ['a lone surrogate in place', { ...ok, place: 'Rome \ud800' }, /^place: /, SURROGATE],
    ['a NUL in description', { ...ok, description: 'nice\u0000' }, /^description: /, CONTROL],
    ['a NUL in a coordinate', { ...ok, latitude: '41\u0000' }, /^latitude: /, /./],
  ])('refuses %s with a 400, and writes nothing', async (_name, body, field, message) => {
    const before = await h.counts();
    const res = await h.add(user, body);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toBe('bad_request');
    expect(res.json<{ message: string }>().message).toMatch(field);
    expect(res.json<{ message: string }>().message).toMatch(message);
    expect(await h.counts()).toEqual(before);
  });

  it('keeps tabs and line breaks in a description (multi-line text)', async () => {
    const res = await h.add(user, { ...ok, description: 'first\tline\r\nsecond line' });
    expect(res.statusCode).toBe(201);
  });
});

describe('itineraries and path ids', () => {
  it.each([
    [
      'a NUL in an item',
      (id: string) => ({ bucketListId: id, itinerary: ['Opera', 'Mu\u0000nch'] }),
      /^itinerary\.1: /,
      CONTROL,
    ],
    [
      'a lone surrogate in an item',
      (id: string) => ({ bucketListId: id, itinerary: ['\ud800'] }),
      /^itinerary\.0: /,
      SURROGATE,
    ],
    [
      'a NUL in bucketListId',
      (id: string) => ({ bucketListId: `${id}\u0000`, itinerary: [] }),
      /^bucketListId: /,
      CONTROL,
    ],
  ])(
    'POST /api/itinerary refuses %s with a 400, and changes nothing',
    async (_name, body, field, message) => {
      const before = await h.counts();
      const res = await h.saveItinerary(user, body(itemId));
      expect(res.statusCode).toBe(400);
      expect(res.json<{ message: string }>().message).toMatch(field);
      expect(res.json<{ message: string }>().message).toMatch(message);
      expect((await h.getItinerary(user, itemId)).json()).toEqual({ itinerary: ['Opera'] });
      expect(await h.counts()).toEqual(before);
    },
  );

  it.each([
    ['DELETE', '/api/bucketlist/%00'],
    ['DELETE', '/api/bucketlist/:id%7F'],
    ['GET', '/api/itinerary/%00'],
    ['GET', '/api/itinerary/a%0Ab'],
  ])('%s %s is a 400 naming the path parameter', async (method, url) => {
    const before = await h.counts();
    const res = await h.app.inject({
      method: method as 'GET',
      url: url.replace(':id', itemId),
      headers: as(user),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'bad_request',
      message: expect.stringMatching(
        /^Path parameter (id|bucketListId) must not contain control characters/,
      ),
    });
    expect(await h.counts()).toEqual(before);
  });
});
