import { describe, expect, it } from 'vitest';
import type { PlaceChoice } from '../map/places';
import type { Trip } from './api';
import {
  afterPatch,
  combinedProgress,
  formFromTrip,
  initialTripEdit,
  pendingUploads,
  TRIP_EDIT_TEXTS,
  tripEditReducer,
  tripPatch,
  withSavedPhotos,
  type TripEditAction,
  type TripEditState,
} from './tripEditState';
import type { PhotoLike } from './tripForm';

type State = TripEditState<PhotoLike>;
type Action = TripEditAction<PhotoLike>;

const photo = (name: string, size = 1000): PhotoLike => ({ name, type: 'image/png', size });
const url = (id: string) => `/api/photos/t1/${id}`;

const dest = (id: string, photos: string[] = [], over: Partial<Trip['destinations'][0]> = {}) => ({
  _id: id,
  name: `Place ${id}`,
  latitude: 10,
  longitude: 20,
  startDate: '2025-08-02',
  endDate: '2025-08-04',
  story: `Story ${id}`,
  photos,
  ...over,
});

const trip = (destinations = [dest('a', [url('p1'), url('p2')]), dest('b')]): Trip => ({
  _id: 't1',
  name: 'Nordic loop',
  startDate: '2025-08-02',
  endDate: '2025-08-16',
  destinations,
});

const run = (actions: Action[], from: State = initialTripEdit<PhotoLike>()) =>
  actions.reduce(tripEditReducer<PhotoLike>, from);
const loaded = (t: Trip = trip()) => run([{ type: 'loaded', trip: t, etag: '"1"' }]);

const oslo: PlaceChoice = { name: 'Oslo', label: 'Oslo, Norway', latitude: 59.9, longitude: 10.7 };

describe('the edit form, prefilled', () => {
  it('holds the saved trip: name, dates (their day), destinations with their saved photos', () => {
    const state = loaded(trip([dest('a', [url('p1')], { startDate: '2025-08-02T00:00:00.000Z' })]));
    expect(state.load).toEqual({ status: 'ready' });
    expect(state.etag).toBe('"1"');
    expect(state.form.name).toBe('Nordic loop');
    expect(state.form.range).toEqual({ startDate: '2025-08-02', endDate: '2025-08-16' });
    expect(state.form.destinations[0]).toMatchObject({
      key: 'a',
      id: 'a',
      startDate: '2025-08-02',
      saved: [url('p1')],
      photos: [],
    });
  });

  it('says a missing trip apart from a failed load', () => {
    expect(run([{ type: 'load-failed', notFound: true, message: 'x' }]).load).toEqual({
      status: 'not-found',
    });
    expect(run([{ type: 'load-failed', notFound: false, message: 'Down.' }]).load).toEqual({
      status: 'failed',
      message: 'Down.',
    });
  });
});

describe('what Save sends (PATCH)', () => {
  const t = trip();

  it('nothing when nothing changed (photos are not part of it)', () => {
    const state = run(
      [{ type: 'destination-photos-chosen', key: 'a', files: [photo('x.png')] }],
      loaded(t),
    );
    expect(tripPatch(t, state.form)).toBeNull();
    expect(tripPatch(t, formFromTrip(t))).toBeNull();
  });

  it('a new name (trimmed) and dates, without the list when it did not change', () => {
    const state = run(
      [
        { type: 'name', value: '  Nordic summer ' },
        { type: 'trip-date', field: 'endDate', value: '2025-08-20' },
      ],
      loaded(t),
    );
    expect(tripPatch(t, state.form)).toEqual({ name: 'Nordic summer', endDate: '2025-08-20' });
  });

  it('the whole list when a destination is added, removed or changed: kept ones by _id with what changed', () => {
    const state = run(
      [
        { type: 'remove-destination', key: 'b' },
        { type: 'destination-field', key: 'a', field: 'story', value: 'New story' },
        { type: 'place-selected', choice: oslo },
        { type: 'story', value: 'Midnight sun' },
        { type: 'add-destination' },
      ],
      loaded(t),
    );
    expect(tripPatch(t, state.form)).toEqual({
      destinations: [
        { _id: 'a', story: 'New story' },
        {
          name: 'Oslo, Norway',
          latitude: 59.9,
          longitude: 10.7,
          startDate: '2025-08-02',
          endDate: '2025-08-16',
          story: 'Midnight sun',
        },
      ],
    });
    // only a removal
    const removed = run([{ type: 'remove-destination', key: 'a' }], loaded(t));
    expect(tripPatch(t, removed.form)).toEqual({ destinations: [{ _id: 'b' }] });
  });
});

describe('after each answer', () => {
  it('a patch gives new destinations their ids and keeps the files still to send', () => {
    const t = trip([dest('a')]);
    const state = run(
      [
        { type: 'name', value: 'Renamed' },
        { type: 'destination-photos-chosen', key: 'a', files: [photo('x.png')] },
        { type: 'place-selected', choice: oslo },
        { type: 'photos-chosen', files: [photo('y.png')] },
        { type: 'add-destination' },
        { type: 'submit', today: '2025-01-01' },
      ],
      loaded(t),
    );
    expect(state.form.sending?.run).toBe(1);
    const answer: Trip = {
      ...t,
      name: 'Renamed',
      destinations: [dest('a'), dest('n', [], { name: 'Oslo, Norway' })],
    };
    const patched = run([{ type: 'patched', trip: answer, etag: '"2"' }], state);
    expect(patched.etag).toBe('"2"');
    expect(patched.trip).toBe(answer);
    expect(patched.form.destinations.map((d) => [d.id, d.photos.map((p) => p.name)])).toEqual([
      ['a', ['x.png']],
      ['n', ['y.png']],
    ]);
    // so the photos go through the photo route, to each destination
    expect(pendingUploads(patched.form).map((u) => [u.destinationId, u.files.length])).toEqual([
      ['a', 1],
      ['n', 1],
    ]);
    expect(afterPatch(state.form, answer)).toEqual(patched.form);
    // and a Save after a failure half way sends no patch again
    const failed = run([{ type: 'send-failed', message: 'Lost.' }], patched);
    expect(tripPatch(failed.trip!, failed.form)).toBeNull();
  });

  it('a photo add takes its files out of the form and shows them saved', () => {
    const state = run(
      [{ type: 'destination-photos-chosen', key: 'b', files: [photo('x.png'), photo('z.png')] }],
      loaded(),
    );
    const files = state.form.destinations[1]!.photos;
    const answer = trip([dest('a', [url('p1'), url('p2')]), dest('b', [url('p3'), url('p4')])]);
    const added = run(
      [{ type: 'photos-added', trip: answer, etag: '"2"', sent: { key: 'b', files } }],
      state,
    );
    expect(added.form.destinations[1]).toMatchObject({ photos: [], saved: [url('p3'), url('p4')] });
    expect(pendingUploads(added.form)).toEqual([]);
  });
});

describe('removing a saved photo', () => {
  it('asks first; the answer shows it gone and keeps the changes not saved yet', () => {
    const asked = run(
      [
        { type: 'name', value: 'Not saved yet' },
        { type: 'photo-remove-ask', key: 'a', url: url('p1'), index: 0 },
      ],
      loaded(),
    );
    expect(asked.removal).toEqual({ key: 'a', url: url('p1'), index: 0, busy: false, error: null });
    expect(run([{ type: 'photo-remove-cancel' }], asked).removal).toBeNull();

    const busy = run([{ type: 'photo-remove-start' }], asked);
    expect(busy.removal?.busy).toBe(true);
    // the question stays while the request is under way, and the form waits
    expect(run([{ type: 'photo-remove-cancel' }], busy)).toBe(busy);
    expect(run([{ type: 'name', value: 'x' }], busy)).toBe(busy);

    const answer = trip([dest('a', [url('p2')]), dest('b')]);
    const removed = run([{ type: 'photo-removed', trip: answer, etag: '"2"' }], busy);
    expect(removed.removal).toBeNull();
    expect(removed.etag).toBe('"2"');
    expect(removed.form.destinations[0]!.saved).toEqual([url('p2')]);
    expect(removed.form.name).toBe('Not saved yet');
    expect(removed.form.announcement).toBe(TRIP_EDIT_TEXTS.removed);
    expect(tripPatch(answer, removed.form)).toEqual({ name: 'Not saved yet' });
  });

  it('a refused removal keeps the question open with why; a 412 is a conflict', () => {
    const failed = run(
      [
        { type: 'photo-remove-ask', key: 'a', url: url('p1'), index: 0 },
        { type: 'photo-remove-start' },
        { type: 'photo-remove-failed', message: TRIP_EDIT_TEXTS.conflict, conflict: true },
      ],
      loaded(),
    );
    expect(failed.removal).toMatchObject({ busy: false, error: TRIP_EDIT_TEXTS.conflict });
    expect(failed.conflict).toBe(true);
    // loading the trip again starts over
    const reloaded = run(
      [{ type: 'load-start' }, { type: 'loaded', trip: trip(), etag: '"5"' }],
      failed,
    );
    expect(reloaded.conflict).toBe(false);
    expect(reloaded.removal).toBeNull();
    expect(reloaded.etag).toBe('"5"');
  });

  it('keeps a photo of a destination only listed here out of the answer', () => {
    const state = run(
      [{ type: 'place-selected', choice: oslo }, { type: 'add-destination' }],
      loaded(),
    );
    const after = withSavedPhotos(state.form, trip([dest('a', [url('p2')]), dest('b')]));
    expect(after.destinations.map((d) => d.saved)).toEqual([[url('p2')], [], []]);
    expect(after.destinations[2]!.id).toBeUndefined();
  });
});

describe('progress over several photo adds', () => {
  it('counts the bytes done and the share of the one under way', () => {
    expect(combinedProgress(0, 0, null)).toBeNull();
    expect(combinedProgress(1000, 0, null)).toEqual({ loaded: 0, total: 1000 });
    expect(
      combinedProgress(1000, 400, { bytes: 600, progress: { loaded: 50, total: 100 } }),
    ).toEqual({ loaded: 700, total: 1000 });
    expect(
      combinedProgress(1000, 400, { bytes: 600, progress: { loaded: 120, total: 100 } }),
    ).toEqual({ loaded: 1000, total: 1000 });
  });
});

describe('who can see the trip', () => {
  it('is prefilled from the trip; a trip answered without it is Friends', () => {
    expect(loaded().form.visibility).toBe('friends');
    expect(loaded({ ...trip(), visibility: 'private' }).form.visibility).toBe('private');
  });

  it('is sent in the patch only when it changed, alone when nothing else did', () => {
    const state = loaded();
    expect(tripPatch(state.trip!, state.form)).toBeNull();
    const changed = run([{ type: 'visibility', value: 'private' }], state);
    expect(tripPatch(changed.trip!, changed.form)).toEqual({ visibility: 'private' });
    const back = run([{ type: 'visibility', value: 'friends' }], changed);
    expect(tripPatch(back.trip!, back.form)).toBeNull();
    const priv = loaded({ ...trip(), visibility: 'private' });
    const opened = run([{ type: 'visibility', value: 'friends' }], priv);
    expect(tripPatch(opened.trip!, opened.form)).toEqual({ visibility: 'friends' });
  });

  it('takes the answered visibility after the patch', () => {
    const changed = run([{ type: 'visibility', value: 'private' }], loaded());
    const after = run(
      [{ type: 'patched', trip: { ...trip(), visibility: 'private' }, etag: '"2"' }],
      changed,
    );
    expect(after.form.visibility).toBe('private');
    expect(tripPatch(after.trip!, after.form)).toBeNull();
  });
});
