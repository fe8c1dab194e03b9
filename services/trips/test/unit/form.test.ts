import { describe, expect, it } from 'vitest';
import { TripLimits } from '@wayfarer/contracts';
import { describeFile, parseFieldName, TripFormCollector } from '../../src/domain/form';
import { refusal } from '../refusal';

const httpError = refusal;

describe('parseFieldName', () => {
  it.each([
    ['name', { kind: 'trip', key: 'name' }],
    ['startDate', { kind: 'trip', key: 'startDate' }],
    ['endDate', { kind: 'trip', key: 'endDate' }],
    ['destinations[0][name]', { kind: 'destination', index: 0, key: 'name' }],
    ['destinations[3][latitude]', { kind: 'destination', index: 3, key: 'latitude' }],
    ['destinations[19][story]', { kind: 'destination', index: 19, key: 'story' }],
    ['destinations[1][startDate]', { kind: 'destination', index: 1, key: 'startDate' }],
    ['destinations[1][longitude]', { kind: 'destination', index: 1, key: 'longitude' }],
    ['photos[0]', { kind: 'photos', index: 0 }],
    ['photos[12]', { kind: 'photos', index: 12 }],
  ])('%s', (name, ref) => {
    expect(parseFieldName(name)).toEqual(ref);
  });

  it.each([
    'isAdmin',
    'ownerId',
    '_id',
    'Name',
    'destinations',
    'destinations[0]',
    'destinations[0][ownerId]',
    'destinations[0][photos]',
    'destinations[0][name][x]',
    'destinations[-1][name]',
    'destinations[a][name]',
    'destinations[][name]',
    'destinations[1.5][name]',
    ' name',
    'photos',
    'photos[]',
    'photos[0][1]',
    'photos[0]x',
    'photos[-1]',
  ])('unknown field %j: 400', (name) => {
    const err = httpError(() => parseFieldName(name));
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(/Unexpected field/);
  });

  it.each(['destinations[20][name]', 'photos[20]', 'destinations[99999999999999999999][name]'])(
    'out-of-range index %s: 400',
    (name) => {
      const err = httpError(() => parseFieldName(name));
      expect(err.statusCode).toBe(400);
      expect(err.message).toMatch(/at most 20 destinations/);
    },
  );

  it('a part without a field name: 400', () => {
    expect(httpError(() => parseFieldName('')).message).toBe(
      'The form has a part without a field name.',
    );
  });

  it('refuses indexes with leading zeros (two spellings of one index)', () => {
    expect(httpError(() => parseFieldName('destinations[01][name]')).message).toMatch(
      /leading zeros/,
    );
    expect(httpError(() => parseFieldName('photos[00]')).statusCode).toBe(400);
  });
});

describe('TripFormCollector', () => {
  function destination(c: TripFormCollector, i: number, name = `Place ${i}`) {
    c.field(`destinations[${i}][name]`, name);
    c.field(`destinations[${i}][latitude]`, '1');
    c.field(`destinations[${i}][longitude]`, '2');
  }

  it('groups fields by destination, in any order, and counts photos', () => {
    const c = new TripFormCollector();
    expect(c.photo('photos[1]')).toBe(1);
    c.field('destinations[1][story]', 'second');
    c.field('name', 'Trip');
    destination(c, 1);
    destination(c, 0);
    c.field('startDate', '2024-05-01');
    expect(c.photo('photos[1]')).toBe(1);
    expect(c.photo('photos[0]')).toBe(0);
    expect(c.finish()).toEqual({
      trip: { name: 'Trip', startDate: '2024-05-01' },
      destinations: [
        { name: 'Place 0', latitude: '1', longitude: '2' },
        { name: 'Place 1', latitude: '1', longitude: '2', story: 'second' },
      ],
      photoCounts: [1, 2],
    });
  });

  it('an empty form is a trip with no destinations', () => {
    expect(new TripFormCollector().finish()).toEqual({
      trip: {},
      destinations: [],
      photoCounts: [],
    });
  });

  it('gaps in destination indexes: 400', () => {
    const c = new TripFormCollector();
    destination(c, 0);
    destination(c, 2);
    const err = httpError(() => c.finish());
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(/without gaps: destinations\[1\] is missing/);
  });

  it('destinations not starting at 0: 400', () => {
    const c = new TripFormCollector();
    destination(c, 1);
    expect(httpError(() => c.finish()).message).toMatch(/destinations\[0\] is missing/);
  });

  it('photos of a destination that does not exist: 400', () => {
    const c = new TripFormCollector();
    destination(c, 0);
    c.photo('photos[0]');
    c.photo('photos[3]');
    const err = httpError(() => c.finish());
    expect(err.statusCode).toBe(400);
    expect(err.message).toMatch(/photos\[3\] belongs to no destination/);
  });

  it('photos with no destinations at all: 400', () => {
    const c = new TripFormCollector();
    c.photo('photos[0]');
    expect(httpError(() => c.finish()).message).toMatch(/photos\[0\] belongs to no destination/);
  });

  it.each(['name', 'startDate', 'destinations[0][name]', 'destinations[0][story]'])(
    'duplicated scalar %s: 400',
    (name) => {
      const c = new TripFormCollector();
      c.field(name, 'a');
      const err = httpError(() => c.field(name, 'b'));
      expect(err.statusCode).toBe(400);
      expect(err.message).toBe(`The ${name} field was sent more than once.`);
    },
  );

  it('a duplicated field is refused even when the first value was empty', () => {
    const c = new TripFormCollector();
    c.field('name', '');
    expect(httpError(() => c.field('name', 'x')).statusCode).toBe(400);
  });

  it('visibility is a trip field of its own, optional and sent once', () => {
    const c = new TripFormCollector();
    c.field('visibility', 'private');
    expect(c.finish().trip).toEqual({ visibility: 'private' });
    const twice = new TripFormCollector();
    twice.field('visibility', 'private');
    expect(httpError(() => twice.field('visibility', 'friends')).message).toBe(
      'The visibility field was sent more than once.',
    );
  });

  it('unknown text field: 400', () => {
    expect(httpError(() => new TripFormCollector().field('isAdmin', 'true')).message).toBe(
      'Unexpected field "isAdmin".',
    );
  });

  it('photos sent as text: 400', () => {
    expect(
      httpError(() => new TripFormCollector().field('photos[0]', 'http://x/y.png')).message,
    ).toBe('photos[0] must be an image file.');
  });

  it('a file in a text field: 400', () => {
    expect(httpError(() => new TripFormCollector().photo('name')).message).toMatch(
      /Unexpected file "name"/,
    );
  });

  it(`more than ${TripLimits.photosPerDestinationMax} photos for one destination: 400`, () => {
    const c = new TripFormCollector();
    for (let i = 0; i < TripLimits.photosPerDestinationMax; i++) c.photo('photos[0]');
    const err = httpError(() => c.photo('photos[0]'));
    expect(err.statusCode).toBe(400);
    expect(err.message).toBe('A destination may have at most 10 photos.');
    // another destination still has room
    expect(c.photo('photos[1]')).toBe(1);
  });

  it(`more than ${TripLimits.photosPerTripMax} photos in a trip: 400`, () => {
    const c = new TripFormCollector();
    for (let i = 0; i < TripLimits.photosPerTripMax; i++) {
      c.photo(`photos[${i % TripLimits.destinationsMax}]`);
    }
    const err = httpError(() => c.photo('photos[0]'));
    expect(err.message).toBe('A trip may have at most 40 photos.');
  });
});

describe('describeFile', () => {
  it('quotes a clean file name, drops odd characters, and caps its length', () => {
    expect(describeFile('photos[0]', 'beach.jpg')).toBe('photos[0] ("beach.jpg")');
    expect(describeFile('photos[0]', '<img src=x>"\n.svg')).toBe('photos[0] ("img srcx.svg")');
    expect(describeFile('photos[1]', '')).toBe('photos[1]');
    expect(describeFile('photos[0]', 'a'.repeat(200))).toHaveLength('photos[0] ("")'.length + 80);
  });
});
