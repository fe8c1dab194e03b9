import { TripDateMessages, TripLimits } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import type { PlaceChoice } from '../map/places';
import { TRIP_TEXTS } from './api';
import type { PhotoLike } from './tripForm';
import {
  builderRange,
  chosenFiles,
  initialTripForm,
  photoTotals,
  progressPercent,
  TRIP_FORM_TEXTS,
  tripFormReducer,
  uploadNote,
  type DestinationEntry,
  type TripFormAction,
  type TripFormState,
} from './tripFormState';

type State = TripFormState<PhotoLike>;
type Action = TripFormAction<PhotoLike>;

const TODAY = '2025-06-01';
const photo = (name: string, size = 1000, type = 'image/png'): PhotoLike => ({ name, type, size });
const place = (label: string, latitude = 48.85, longitude = 2.35): PlaceChoice => ({
  name: label.split(',')[0]!,
  label,
  latitude,
  longitude,
});

const run = (
  actions: Action[],
  from: State = initialTripForm({ startDate: TODAY, endDate: TODAY }),
) => actions.reduce(tripFormReducer<PhotoLike>, from);

const addPlace = (label: string, ...more: Action[]): Action[] => [
  { type: 'place-selected', choice: place(label) },
  ...more,
  { type: 'add-destination' },
];

const saved = (id: string, photos: string[]): DestinationEntry<PhotoLike> => ({
  key: id,
  id,
  name: `Place ${id}`,
  latitude: 1,
  longitude: 2,
  startDate: '2025-01-01',
  endDate: '2025-01-03',
  story: 'Saved story',
  photos: [],
  saved: photos,
  photoProblems: [],
});

describe('the trip form: trip fields', () => {
  it('starts from the given range with no name and no destinations', () => {
    const state = run([]);
    expect(state.name).toBe('');
    expect(state.range).toEqual({ startDate: TODAY, endDate: TODAY });
    expect(state.destinations).toEqual([]);
    expect(state.sending).toBeNull();
  });

  it('keeps the trip range sensible while picking: an end before the start moves with it', () => {
    const state = run([
      { type: 'name', value: 'Summer' },
      { type: 'trip-date', field: 'endDate', value: '2025-06-10' },
      { type: 'trip-date', field: 'startDate', value: '2025-06-12' },
    ]);
    expect(state.name).toBe('Summer');
    expect(state.range).toEqual({ startDate: '2025-06-12', endDate: '2025-06-12' });
  });
});

describe('the trip form: composing a destination', () => {
  it('follows the trip dates until it is given its own', () => {
    let state = run([{ type: 'trip-date', field: 'endDate', value: '2025-06-09' }]);
    expect(builderRange(state)).toEqual({ startDate: TODAY, endDate: '2025-06-09' });
    state = run([{ type: 'destination-date', field: 'startDate', value: '2025-06-03' }], state);
    expect(builderRange(state)).toEqual({ startDate: '2025-06-03', endDate: '2025-06-09' });
    // the trip's dates no longer move it
    state = run([{ type: 'trip-date', field: 'endDate', value: '2025-06-20' }], state);
    expect(builderRange(state)).toEqual({ startDate: '2025-06-03', endDate: '2025-06-09' });
  });

  it('refuses a destination without a picked place, with the spec message, and focuses the place input', () => {
    const state = run([{ type: 'place-typed', text: 'Par' }, { type: 'add-destination' }]);
    expect(state.destinations).toEqual([]);
    expect(state.builder.placeError).toBe(TRIP_TEXTS.invalidDestination);
    expect(state.focus?.target).toBe('place');
    // typing again clears the message, and drops any earlier choice
    const typed = run([{ type: 'place-typed', text: 'Pari' }], state);
    expect(typed.builder.placeError).toBeNull();
    const chosen = run([{ type: 'place-selected', choice: place('Paris, France') }], state);
    expect(chosen.builder.place?.label).toBe('Paris, France');
    expect(run([{ type: 'place-typed', text: 'Paris, Fr' }], chosen).builder.place).toBeNull();
    // Enter on text without a suggestion (the autocomplete's onInvalid)
    const invalid = run([{ type: 'place-invalid' }], chosen);
    expect(invalid.builder.place).toBeNull();
    expect(invalid.builder.placeError).toBe(TRIP_TEXTS.invalidDestination);
  });

  it('adds the composed destination and starts the builder again, focused and empty', () => {
    const before = run([
      { type: 'destination-date', field: 'endDate', value: '2025-06-05' },
      { type: 'story', value: 'Croissants.' },
      { type: 'photos-chosen', files: [photo('seine.png')] },
    ]);
    const state = run(addPlace('Paris, France'), before);
    expect(state.destinations).toHaveLength(1);
    expect(state.destinations[0]).toMatchObject({
      name: 'Paris, France',
      latitude: 48.85,
      longitude: 2.35,
      startDate: TODAY,
      endDate: '2025-06-05',
      story: 'Croissants.',
      photos: [photo('seine.png')],
      saved: [],
    });
    expect(state.destinations[0]!.id).toBeUndefined();
    expect(state.builder).toMatchObject({
      place: null,
      placeText: '',
      story: '',
      photos: [],
      ownRange: null,
      generation: before.builder.generation + 1,
    });
    expect(state.announcement).toBe('Paris, France added.');
    expect(state.focus?.target).toBe('place');

    // each added destination has its own key, and a removed one says so and focuses the list
    const two = run(addPlace('Rome, Italy'), state);
    const keys = two.destinations.map((d) => d.key);
    expect(new Set(keys).size).toBe(2);
    const removed = run([{ type: 'remove-destination', key: keys[0]! }], two);
    expect(removed.destinations.map((d) => d.name)).toEqual(['Rome, Italy']);
    expect(removed.announcement).toBe('Paris, France removed.');
    expect(removed.focus).toEqual({ target: 'list', seq: two.focus!.seq + 1 });
  });

  it("changes a listed destination's dates (kept in order) and story, not its place", () => {
    const added = run(addPlace('Paris, France'));
    const key = added.destinations[0]!.key;
    const state = run(
      [
        { type: 'destination-field', key, field: 'endDate', value: '2025-06-04' },
        { type: 'destination-field', key, field: 'startDate', value: '2025-06-07' },
        { type: 'destination-field', key, field: 'story', value: 'Rain, then sun.' },
      ],
      added,
    );
    expect(state.destinations[0]).toMatchObject({
      name: 'Paris, France',
      startDate: '2025-06-07',
      endDate: '2025-06-07',
      story: 'Rain, then sun.',
    });
  });

  it(`holds at most ${TripLimits.destinationsMax} destinations`, () => {
    const full = run(
      Array.from({ length: TripLimits.destinationsMax }, (_, i) => addPlace(`Town ${i}, X`)).flat(),
    );
    expect(full.destinations).toHaveLength(TripLimits.destinationsMax);
    const over = run(addPlace('One more, X'), full);
    expect(over.destinations).toHaveLength(TripLimits.destinationsMax);
    expect(over.builder.placeError).toBe(TRIP_FORM_TEXTS.tooManyDestinations);
  });

  it('checks chosen photos against the limits, counting every photo of the trip', () => {
    let state = run([
      {
        type: 'photos-chosen',
        files: [photo('a.png'), photo('notes.txt', 10, 'text/plain'), photo('b.png')],
      },
    ]);
    expect(state.builder.photos.map((p) => p.name)).toEqual(['a.png', 'b.png']);
    expect(state.builder.photoProblems).toEqual([
      'notes.txt is not a JPEG, PNG, WebP or GIF image.',
    ]);
    state = run([{ type: 'photo-dropped', file: state.builder.photos[0]! }], state);
    expect(state.builder.photos.map((p) => p.name)).toEqual(['b.png']);

    const many = Array.from({ length: TripLimits.photosPerDestinationMax + 2 }, (_, i) =>
      photo(`p${i}.png`),
    );
    state = run([{ type: 'photos-chosen', files: many }], state);
    expect(state.builder.photos).toHaveLength(TripLimits.photosPerDestinationMax);
    expect(state.builder.photoProblems[0]).toMatch(/^3 photos were left out: at most 10 photos/);
    // the builder's photos and the list's count against the trip's total
    expect(chosenFiles(state)).toHaveLength(TripLimits.photosPerDestinationMax);
    expect(photoTotals(state)).toEqual({ count: 10, bytes: 10_000 });
  });
});

describe('the trip form: Save', () => {
  const named = (...more: Action[]) => run([{ type: 'name', value: 'Trip' }, ...more]);

  it('sends once: a second Save and any edit meanwhile change nothing', () => {
    const state = named(...addPlace('Paris, France'), { type: 'submit', today: TODAY });
    expect(state.sending).toEqual({ run: 1, progress: null });
    expect(run([{ type: 'submit', today: TODAY }], state)).toBe(state);
    expect(run([{ type: 'name', value: 'Other' }], state)).toBe(state);
    expect(run([{ type: 'remove-destination', key: state.destinations[0]!.key }], state)).toBe(
      state,
    );
    const progressed = run([{ type: 'progress', progress: { loaded: 5, total: 10 } }], state);
    expect(progressed.sending).toEqual({ run: 1, progress: { loaded: 5, total: 10 } });
  });

  it('takes a destination picked but not added along', () => {
    const state = named(
      { type: 'place-selected', choice: place('Lisbon, Portugal') },
      {
        type: 'submit',
        today: TODAY,
      },
    );
    expect(state.destinations.map((d) => d.name)).toEqual(['Lisbon, Portugal']);
    expect(state.sending?.run).toBe(1);
  });

  it('does not drop a half-composed destination without a place', () => {
    for (const work of [
      { type: 'story', value: 'A story' },
      { type: 'place-typed', text: 'Lis' },
      { type: 'photos-chosen', files: [photo('x.png')] },
    ] as Action[]) {
      const state = named(work, { type: 'submit', today: TODAY });
      expect(state.sending).toBeNull();
      expect(state.builder.placeError).toBe(TRIP_TEXTS.invalidDestination);
      expect(state.focus?.target).toBe('place');
    }
    // blank text is no work: a trip without destinations may be saved
    expect(
      named({ type: 'place-typed', text: '  ' }, { type: 'submit', today: TODAY }).sending,
    ).not.toBeNull();
  });

  it('says a destination ending before it starts, as the trips service would, and sends nothing', () => {
    const state = named(
      { type: 'trip-date', field: 'endDate', value: '2025-06-10' },
      { type: 'place-selected', choice: place('Paris, France') },
      { type: 'destination-date', field: 'startDate', value: '2025-06-04' },
    );
    // the date inputs keep a pair in order; a destination's own dates come only from them, so
    // an out-of-order one here is made by hand
    const broken: State = {
      ...state,
      builder: { ...state.builder, ownRange: { startDate: '2025-06-04', endDate: '2025-06-02' } },
    };
    const refused = run([{ type: 'submit', today: TODAY }], broken);
    expect(refused.sending).toBeNull();
    expect(refused.saveError).toBe(`Paris, France: ${TripDateMessages.endBeforeStart}`);
  });

  it('refuses a trip over the photo byte limit before sending a byte', () => {
    const big = TripLimits.photoMaxBytes - 1;
    const perDestination = Array.from({ length: 4 }, (_, i) => photo(`big${i}.png`, big));
    let state = named();
    // the picker already refuses what goes over; a trip carried over its limit is checked again
    for (let i = 0; i < 2; i++) {
      state = {
        ...state,
        builder: { ...state.builder, photos: perDestination },
      };
      state = run(addPlace(`Town ${i}, X`), state);
    }
    const refused = run([{ type: 'submit', today: TODAY }], state);
    expect(refused.sending).toBeNull();
    expect(refused.saveError).toMatch(/^This trip's photos are too large to send/);
  });

  it('keeps everything after a failed send and says why; Save again is a new send', () => {
    const sending = named(...addPlace('Paris, France'), { type: 'submit', today: TODAY });
    const failed = run([{ type: 'send-failed', message: 'The trips service is down.' }], sending);
    expect(failed.sending).toBeNull();
    expect(failed.saveError).toBe('The trips service is down.');
    expect(failed.destinations).toEqual(sending.destinations);
    expect(failed.name).toBe('Trip');
    const again = run([{ type: 'submit', today: TODAY }], failed);
    expect(again.saveError).toBeNull();
    expect(again.sending).toEqual({ run: 2, progress: null });
  });
});

describe('the trip form: saved destinations (edit screen)', () => {
  it('adds photos to a saved destination, counting its saved ones against the limit', () => {
    const nine = Array.from({ length: 9 }, (_, i) => `/api/photos/t/${i}.jpg`);
    const state = initialTripForm<PhotoLike>(
      { startDate: '2025-01-01', endDate: '2025-01-09' },
      'Old',
      [saved('a', nine), saved('b', [])],
    );
    expect(photoTotals(state)).toEqual({ count: 9, bytes: 0 });
    const chosen = run(
      [{ type: 'destination-photos-chosen', key: 'a', files: [photo('x.png'), photo('y.png')] }],
      state,
    );
    const a = chosen.destinations[0]!;
    expect(a.photos.map((p) => p.name)).toEqual(['x.png']);
    expect(a.photoProblems).toEqual(['1 photo was left out: at most 10 photos per destination.']);
    expect(a.saved).toEqual(nine);
    expect(chosen.destinations[1]).toBe(state.destinations[1]);
    const dropped = run(
      [{ type: 'destination-photo-dropped', key: 'a', file: a.photos[0]! }],
      chosen,
    );
    expect(dropped.destinations[0]!.photos).toEqual([]);
    // a destination added on the edit screen is new: no id
    const added = run(addPlace('Rome, Italy'), state);
    expect(added.destinations.map((d) => d.id)).toEqual(['a', 'b', undefined]);
  });
});

describe('upload progress', () => {
  it('is indeterminate until the size is known, then counts the bytes, then processes', () => {
    expect(progressPercent(null)).toBeNull();
    expect(progressPercent({ loaded: 0, total: 0 })).toBeNull();
    expect(uploadNote(null)).toBe('Starting the upload…');
    expect(progressPercent({ loaded: 512 * 1024, total: 2 * 1024 * 1024 })).toBe(25);
    expect(uploadNote({ loaded: 512 * 1024, total: 2 * 1024 * 1024 })).toBe('512 KB of 2 MB sent');
    expect(uploadNote({ loaded: 10, total: 10 })).toBe('Processing photos…');
  });
});

describe('who can see the trip', () => {
  it('is Friends by default and changes with the control', () => {
    expect(run([]).visibility).toBe('friends');
    expect(run([{ type: 'visibility', value: 'private' }]).visibility).toBe('private');
    expect(
      run([
        { type: 'visibility', value: 'private' },
        { type: 'visibility', value: 'friends' },
      ]).visibility,
    ).toBe('friends');
  });

  it('stays as it is while the trip is being sent', () => {
    const sending = run([{ type: 'submit', today: TODAY }]);
    expect(sending.sending).not.toBeNull();
    expect(tripFormReducer(sending, { type: 'visibility', value: 'private' }).visibility).toBe(
      'friends',
    );
  });
});
