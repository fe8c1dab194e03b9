import { describe, expect, it } from 'vitest';
import { TripDateMessages } from '@wayfarer/contracts';
import type { GroupedTripForm } from '../../src/domain/form';
import { buildTripInput, isoDate } from '../../src/domain/input';
import { refusal } from '../refusal';

const TODAY = '2025-03-09';

/** The trip fields as the spec's client sends them when nothing is filled in. */
const BLANK_TRIP = { name: '', startDate: '', endDate: '' };

function form(partial: Partial<GroupedTripForm> = {}): GroupedTripForm {
  return {
    destinations: [],
    photoCounts: [],
    ...partial,
    trip: { ...BLANK_TRIP, ...partial.trip },
  };
}

const paris = { name: 'Paris', latitude: '48.8566', longitude: '2.3522' };

const error = refusal;

describe('buildTripInput', () => {
  it('a full form', () => {
    const input = buildTripInput(
      form({
        trip: { name: '  Summer  ', startDate: '2024-07-01', endDate: '2024-07-20' },
        destinations: [
          { ...paris, startDate: '2024-07-01', endDate: '2024-07-05', story: 'Croissants.' },
        ],
      }),
      TODAY,
    );
    expect(input).toEqual({
      visibility: 'friends',
      name: 'Summer',
      startDate: '2024-07-01',
      endDate: '2024-07-20',
      destinations: [
        {
          name: 'Paris',
          latitude: 48.8566,
          longitude: 2.3522,
          startDate: '2024-07-01',
          endDate: '2024-07-05',
          story: 'Croissants.',
        },
      ],
    });
  });

  it('the date range defaults to today; destination dates default to the trip range', () => {
    const input = buildTripInput(
      form({ trip: { startDate: '', endDate: ' ' }, destinations: [{ ...paris }] }),
      TODAY,
    );
    expect(input).toMatchObject({ name: '', startDate: TODAY, endDate: TODAY });
    expect(input.destinations[0]).toMatchObject({ startDate: TODAY, endDate: TODAY, story: '' });

    const ranged = buildTripInput(
      form({ trip: { startDate: '2024-01-02', endDate: '2024-01-09' }, destinations: [paris] }),
      TODAY,
    );
    expect(ranged.destinations[0]).toMatchObject({
      startDate: '2024-01-02',
      endDate: '2024-01-09',
    });
  });

  it('keeps the spec lenient about the name', () => {
    const input = buildTripInput(
      form({ trip: { startDate: '2024-02-01', endDate: '2024-02-10' } }),
      TODAY,
    );
    expect(input).toEqual({
      visibility: 'friends',
      name: '',
      startDate: '2024-02-01',
      endDate: '2024-02-10',
      destinations: [],
    });
  });

  it('refuses a trip or a destination that ends before it starts (a one-day range is fine)', () => {
    const trip = error(() =>
      buildTripInput(form({ trip: { startDate: '2024-02-10', endDate: '2024-02-01' } }), TODAY),
    );
    expect(trip.statusCode).toBe(400);
    expect(trip.message).toBe(`endDate: ${TripDateMessages.endBeforeStart}`);
    const destination = error(() =>
      buildTripInput(
        form({
          trip: { startDate: '2024-02-01', endDate: '2024-02-10' },
          destinations: [paris, { ...paris, startDate: '2024-02-05', endDate: '2024-02-04' }],
        }),
        TODAY,
      ),
    );
    expect(destination.message).toBe(`destinations.1.endDate: ${TripDateMessages.endBeforeStart}`);
    // an end before today's default start, and timestamps compared by their dates
    expect(
      error(() => buildTripInput(form({ trip: { endDate: '2025-03-08' } }), TODAY)).message,
    ).toBe(`endDate: ${TripDateMessages.endBeforeStart}`);
    const oneDay = buildTripInput(
      form({ trip: { startDate: '2024-02-10T18:00:00Z', endDate: '2024-02-10T08:00:00Z' } }),
      TODAY,
    );
    expect(oneDay).toMatchObject({ startDate: '2024-02-10', endDate: '2024-02-10' });
  });

  it('accepts an ISO timestamp and keeps its date', () => {
    const input = buildTripInput(form({ trip: { startDate: '2024-02-10T12:00:00.000Z' } }), TODAY);
    expect(input.startDate).toBe('2024-02-10');
  });

  it.each([
    [{ trip: { startDate: 'yesterday' } }, /startDate: must be a date/],
    [{ trip: { endDate: '2024-13-01' } }, /endDate: must be a real date/],
    [{ trip: { startDate: '2024-02-31x' } }, /startDate/],
    [{ trip: { name: 'x'.repeat(121) } }, /name/],
    [{ destinations: [{ ...paris, startDate: '31/12/2024' }] }, /destinations\.0\.startDate/],
    [{ destinations: [{ ...paris, latitude: '200' }] }, /destinations\.0\.latitude/],
    [{ destinations: [{ ...paris, latitude: '-90.5' }] }, /destinations\.0\.latitude/],
    [{ destinations: [{ ...paris, longitude: '180.01' }] }, /destinations\.0\.longitude/],
    [{ destinations: [{ ...paris, longitude: 'east' }] }, /destinations\.0\.longitude/],
    [{ destinations: [{ ...paris, latitude: 'Infinity' }] }, /destinations\.0\.latitude/],
    [{ destinations: [{ ...paris, name: '   ' }] }, /Destination name is required/],
    [{ destinations: [{ latitude: '1', longitude: '2' }] }, /Destination name is required/],
    [{ destinations: [{ ...paris, story: 'x'.repeat(10_001) }] }, /destinations\.0\.story/],
  ] as [Partial<GroupedTripForm>, RegExp][])('junk is a 400: %j', (partial, message) => {
    const err = error(() => buildTripInput(form(partial), TODAY));
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(message);
  });

  it('a missing or empty coordinate is required, never read as 0', () => {
    const err = error(() =>
      buildTripInput(form({ destinations: [paris, { name: 'Nowhere', latitude: '' }] }), TODAY),
    );
    expect(err.message).toBe(
      'destinations.1.latitude: latitude is required. destinations.1.longitude: longitude is required.',
    );
  });

  it('a coordinate that is not a number says so', () => {
    const err = error(() =>
      buildTripInput(
        form({ destinations: [{ ...paris, latitude: '12,5', longitude: 'Infinity' }] }),
        TODAY,
      ),
    );
    expect(err.message).toBe(
      'destinations.0.latitude: latitude must be a number. destinations.0.longitude: longitude must be a number.',
    );
  });

  it.each(['0x10', '1e1', ' ', '+-1'])(
    'a coordinate that is not a plain decimal (%j) is a 400',
    (latitude) => {
      const err = error(() =>
        buildTripInput(form({ destinations: [{ ...paris, latitude }] }), TODAY),
      );
      expect(err.statusCode).toBe(400);
      expect(err.message).toMatch(
        /^destinations\.0\.latitude: latitude (must be a number|is required)\.$/,
      );
    },
  );

  it('an impossible date is a 400', () => {
    const err = error(() => buildTripInput(form({ trip: { startDate: '2026-02-30' } }), TODAY));
    expect(err.message).toBe('startDate: must be a real date');
    const dest = error(() =>
      buildTripInput(form({ destinations: [{ ...paris, endDate: '2025-02-29' }] }), TODAY),
    );
    expect(dest.message).toMatch(/destinations\.0\.endDate: must be a real date/);
  });

  it('a form without the trip fields (an empty or malformed body) is not a trip', () => {
    const empty = error(() =>
      buildTripInput({ trip: {}, destinations: [], photoCounts: [] }, TODAY),
    );
    expect(empty.statusCode).toBe(400);
    expect(empty.message).toBe(
      'Not a trip form: it has no name, startDate, endDate fields. A trip is sent with the fields name, startDate, endDate (each may be empty) and its destinations.',
    );
    const noName = error(() =>
      buildTripInput(
        { trip: { startDate: '', endDate: '' }, destinations: [paris], photoCounts: [0] },
        TODAY,
      ),
    );
    expect(noName.message).toMatch(/^Not a trip form: it has no name field\./);
  });

  it('visibility: friends when left out, private when sent, anything else a 400 naming it', () => {
    expect(buildTripInput(form(), TODAY).visibility).toBe('friends');
    expect(buildTripInput(form({ trip: { visibility: 'private' } }), TODAY).visibility).toBe(
      'private',
    );
    expect(buildTripInput(form({ trip: { visibility: 'friends' } }), TODAY).visibility).toBe(
      'friends',
    );
    for (const bad of ['public', '', 'PRIVATE']) {
      const err = error(() => buildTripInput(form({ trip: { visibility: bad } }), TODAY));
      expect(err.statusCode).toBe(400);
      expect(err.message).toMatch(/^visibility: /);
    }
  });

  it('accepts the edges of the coordinate ranges', () => {
    const input = buildTripInput(
      form({ destinations: [{ name: 'Pole', latitude: '-90', longitude: '180' }] }),
      TODAY,
    );
    expect(input.destinations[0]).toMatchObject({ latitude: -90, longitude: 180 });
  });
});

describe('isoDate', () => {
  it('is the UTC date', () => {
    expect(isoDate(new Date('2025-03-09T23:59:59.999Z'))).toBe('2025-03-09');
  });
});
