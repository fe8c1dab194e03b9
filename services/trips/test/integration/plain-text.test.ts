import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TripDateMessages } from '@wayfarer/contracts';
import { as, newUserId, postTrip, startTrips, tripFields, type Harness } from './harness';

/*
 * POST /api/trips refuses what is not plain text (stories are multi-line, everything
 * else one line) and a trip or destination that ends before it starts, with a 400 naming the
 * field, and creates nothing. Path ids with a control character are a 400 too.
 */

let h: Harness;

beforeAll(async () => {
  h = await startTrips();
});

afterAll(async () => {
  await h?.close();
});

const oslo = { name: 'Oslo', latitude: '59.91', longitude: '10.75' };

describe('POST /api/trips', () => {
  it.each([
    [
      'a NUL in the name',
      { name: 'Summer\u0000' },
      [oslo],
      'name: must not contain control characters: found U+0000 at position 7.',
    ],
    [
      'a line break in a destination name',
      {},
      [{ ...oslo, name: 'Os\nlo' }],
      'destinations.0.name: must not contain control characters: found U+000D at position 3.',
    ],
    [
      'a NUL in a story',
      {},
      [{ ...oslo, story: 'Fjords\u0000' }],
      'destinations.0.story: must not contain control characters (only tabs and line breaks are): found U+0000 at position 7.',
    ],
    [
      'a DEL in a date',
      { startDate: '2024-05-01\u007f' },
      [oslo],
      /^startDate: must not contain control characters: found U\+007F at position 11\./,
    ],
    [
      'a trip that ends before it starts',
      { startDate: '2024-05-10', endDate: '2024-05-01' },
      [oslo],
      `endDate: ${TripDateMessages.endBeforeStart}`,
    ],
    [
      'a destination that ends before it starts',
      { startDate: '2024-05-01', endDate: '2024-05-10' },
      [oslo, { ...oslo, startDate: '2024-05-04', endDate: '2024-05-03' }],
      `destinations.1.endDate: ${TripDateMessages.endBeforeStart}`,
    ],
  ])('refuses %s with a 400, and creates nothing', async (_name, trip, destinations, message) => {
    const userId = newUserId();
    const res = await postTrip(h.app, userId, tripFields(trip, destinations));
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: string }>().error).toBe('bad_request');
    expect(res.json<{ message: string }>().message).toMatch(message);
    expect(await h.trips.listByOwner(userId)).toEqual([]);
  });

  it('keeps tabs and line breaks in a story, and takes a one-day trip', async () => {
    const res = await postTrip(
      h.app,
      newUserId(),
      tripFields({ startDate: '2024-05-01', endDate: '2024-05-01' }, [
        { ...oslo, story: 'Day one:\tfjords\nDay two: rain' },
      ]),
    );
    expect(res.statusCode).toBe(201);
    // a browser's FormData sends line breaks as CRLF
    expect(res.json<{ destinations: { story: string }[] }>().destinations[0]!.story).toBe(
      'Day one:\tfjords\r\nDay two: rain',
    );
  });
});

describe('path ids', () => {
  it.each([
    ['GET', '/api/trips/%00', 'id'],
    ['DELETE', '/api/trips/a%0A', 'id'],
    ['GET', '/api/photos/%00/p', 'tripId'],
    ['GET', '/api/photos/t/%7F', 'photoId'],
  ])('%s %s is a 400 naming the parameter', async (method, url, name) => {
    const res = await h.app.inject({ method: method as 'GET', url, headers: as(newUserId()) });
    expect(res.statusCode).toBe(400);
    expect(res.json<{ message: string }>().message).toMatch(
      new RegExp(`^Path parameter ${name} must not contain control characters`),
    );
  });
});
