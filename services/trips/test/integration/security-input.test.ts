import { describe, expect, it } from 'vitest';
import { TripLimits, type Trip } from '@wayfarer/contracts';
import { as, multipart, newUserId, postTrip, tripFields, type FilePart } from './harness';
import {
  useSecurityHarness,
  expect4xx,
  expectNoTrace,
  h,
  image,
  jpeg,
  oneDestination,
  oslo,
} from './security-harness';

useSecurityHarness();

describe('bad input: 4xx with a message, never 500, never a partial write', () => {
  type Body = { payload: Buffer | string; headers: Record<string, string> };
  const raw = (payload: string | Buffer, contentType: string) => async (): Promise<Body> => ({
    payload,
    headers: { 'content-type': contentType },
  });
  const destinations = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ ...oslo, name: `D${i}` }));
  const cases: [string, () => Promise<Body>, number, RegExp][] = [
    [
      'bad trip date',
      () => multipart(tripFields({ name: 'T', startDate: '2024-02-30x' }, [])),
      400,
      /^startDate: must be a date/,
    ],
    [
      'impossible trip date',
      () => multipart(tripFields({ name: 'T', endDate: '2024-13-45' }, [])),
      400,
      /^endDate: must be a real date$/,
    ],
    [
      'February 30th',
      () => multipart(tripFields({ name: 'T', startDate: '2026-02-30' }, [])),
      400,
      /^startDate: must be a real date$/,
    ],
    [
      'February 29th of a common year, on a destination',
      () => multipart(tripFields({}, [{ ...oslo, endDate: '2025-02-29' }])),
      400,
      /^destinations\.0\.endDate: must be a real date$/,
    ],
    [
      'hex latitude',
      () => multipart(tripFields({}, [{ ...oslo, latitude: '0x10' }])),
      400,
      /^destinations\.0\.latitude: latitude must be a number\.$/,
    ],
    [
      'exponent longitude',
      () => multipart(tripFields({}, [{ ...oslo, longitude: '1e2' }])),
      400,
      /^destinations\.0\.longitude: longitude must be a number\.$/,
    ],
    [
      'empty multipart body',
      raw('--xyz--\r\n', 'multipart/form-data; boundary=xyz'),
      400,
      /^Not a trip form: it has no name, startDate, endDate fields\./,
    ],
    [
      'body with no part',
      raw('\r\nnothing to see\r\n--xyz--\r\n', 'multipart/form-data; boundary=xyz'),
      400,
      /^Not a trip form: it has no name, startDate, endDate fields\./,
    ],
    [
      'destinations without the trip fields',
      () => multipart(oneDestination().filter(([name]) => name.startsWith('destinations'))),
      400,
      /^Not a trip form: it has no name, startDate, endDate fields\./,
    ],
    [
      'bad destination date',
      () => multipart(tripFields({}, [{ ...oslo, startDate: 'tomorrow' }])),
      400,
      /destinations\.0\.startDate/,
    ],
    [
      'latitude 200',
      () => multipart(tripFields({}, [{ ...oslo, latitude: '200' }])),
      400,
      /destinations\.0\.latitude/,
    ],
    [
      'longitude -181',
      () => multipart(tripFields({}, [{ ...oslo, longitude: '-181' }])),
      400,
      /destinations\.0\.longitude/,
    ],
    [
      'latitude not a number',
      () => multipart(tripFields({}, [{ ...oslo, latitude: 'north' }])),
      400,
      /destinations\.0\.latitude: latitude must be a number/,
    ],
    [
      'empty coordinates',
      () => multipart(tripFields({}, [{ ...oslo, latitude: '', longitude: '' }])),
      400,
      /latitude is required/,
    ],
    [
      'destination without a name',
      () => multipart(tripFields({}, [{ ...oslo, name: ' ' }])),
      400,
      /Destination name is required/,
    ],
    [
      'too many destinations',
      () => multipart(tripFields({}, destinations(21))),
      400,
      /at most 20 destinations/,
    ],
    [
      'gap in destination indexes',
      () =>
        multipart([
          ['destinations[0][name]', 'A'],
          ['destinations[0][latitude]', '1'],
          ['destinations[0][longitude]', '1'],
          ['destinations[2][name]', 'C'],
        ]),
      400,
      /destinations\[1\] is missing/,
    ],
    [
      'photos for a missing destination',
      () => multipart(oneDestination(), [{ field: 'photos[1]', data: image }]),
      400,
      /photos\[1\] belongs to no destination/,
    ],
    [
      'photos out of range',
      () => multipart(oneDestination(), [{ field: 'photos[25]', data: image }]),
      400,
      /at most 20 destinations/,
    ],
    [
      'unknown field',
      () => multipart({ ...Object.fromEntries(oneDestination()), ownerId: 'someone-else' }),
      400,
      /Unexpected field "ownerId"/,
    ],
    [
      'unknown destination field',
      () => multipart([...oneDestination(), ['destinations[0][_id]', 'x']]),
      400,
      /Unexpected field/,
    ],
    [
      'duplicated field',
      () =>
        multipart([
          ['name', 'a'],
          ['name', 'b'],
        ]),
      400,
      /name field was sent more than once/,
    ],
    [
      'file in a text field',
      () => multipart({}, [{ field: 'name', data: image }]),
      400,
      /Unexpected file "name"/,
    ],
    [
      'photos sent as text',
      () =>
        multipart({ ...Object.fromEntries(oneDestination()), 'photos[0]': 'http://evil/x.png' }),
      400,
      /must be an image file/,
    ],
    [
      'story too long',
      () => multipart(tripFields({}, [{ ...oslo, story: 'x'.repeat(TripLimits.storyMax + 1) }])),
      400,
      /story/,
    ],
    [
      'huge text field',
      () => multipart({ name: 'x'.repeat(200 * 1024) }),
      400,
      /name field is too long/,
    ],
    [
      'many unknown fields',
      () => multipart(Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${i}`, 'x']))),
      400,
      /Unexpected field/,
    ],
    [
      'JSON body',
      raw(JSON.stringify({ name: 'T' }), 'application/json'),
      415,
      /multipart\/form-data/,
    ],
    ['urlencoded body', raw('name=T', 'application/x-www-form-urlencoded'), 415, /./],
    ['multipart without boundary', raw('garbage', 'multipart/form-data'), 400, /malformed/],
    [
      'garbage with a boundary',
      raw(Buffer.from('\x00\x01 not multipart'), 'multipart/form-data; boundary=xyz'),
      400,
      /./,
    ],
    [
      'bad part headers',
      raw(
        '--xyz\r\nContent-Disposition: form-data\r\n\r\nvalue\r\n--xyz--\r\n',
        'multipart/form-data; boundary=xyz',
      ),
      400,
      /without a field name/,
    ],
    [
      '__proto__ field',
      raw(
        '--xyz\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nv\r\n--xyz--\r\n',
        'multipart/form-data; boundary=xyz',
      ),
      400,
      /./,
    ],
    [
      'JSON part',
      raw(
        '--xyz\r\nContent-Disposition: form-data; name="name"\r\nContent-Type: application/json\r\n\r\n{"$gt":""}\r\n--xyz--\r\n',
        'multipart/form-data; boundary=xyz',
      ),
      400,
      /plain text/,
    ],
    [
      'truncated multipart',
      async () => {
        const body = await multipart(oneDestination(), [{ field: 'photos[0]', data: jpeg }]);
        return {
          payload: body.payload.subarray(0, body.payload.length - 200),
          headers: body.headers,
        };
      },
      400,
      /./,
    ],
  ];
  it.each(cases)('%s', async (_name, build, status, message) => {
    await expectNoTrace(async () => {
      const body = await build();
      const res = await h.app.inject({
        method: 'POST',
        url: '/api/trips',
        payload: body.payload,
        headers: { ...body.headers, ...as(newUserId()) },
      });
      expect4xx(res, status, message);
    });
  });

  it('20 destinations with 10, 10, 10, 10 photos (the limits) are accepted', async () => {
    const files: FilePart[] = Array.from({ length: 40 }, (_, i) => ({
      field: `photos[${i % 4}]`,
      data: image,
    }));
    const res = await postTrip(
      h.app,
      newUserId(),
      tripFields({ name: 'Max' }, destinations(20)),
      files,
    );
    expect(res.statusCode, res.body).toBe(201);
    const trip = res.json<Trip>();
    expect(trip.destinations).toHaveLength(20);
    expect(trip.destinations.map((d) => d.photos.length).slice(0, 5)).toEqual([10, 10, 10, 10, 0]);
    await h.variants.idle();
    expect(await h.photos.list(`${trip._id}/`)).toHaveLength(80);
  });
});
