import { describe, expect, it } from 'vitest';
import {
  BUCKET_TEXTS,
  bucketMarkers,
  bucketReducer,
  entryLabel,
  initialBucketState,
  visitedLine,
  type BucketAction,
  type BucketItem,
  type BucketState,
} from './listState';

const item = (id: string, extra: Partial<BucketItem> = {}): BucketItem => ({
  _id: id,
  place: `Place ${id}`,
  latitude: 10,
  longitude: 20,
  isVisited: false,
  ...extra,
});

const run = (actions: BucketAction[], from: BucketState = initialBucketState) =>
  actions.reduce(bucketReducer, from);

const loaded = (items: BucketItem[], startedAt = 0): BucketAction => ({
  type: 'loaded',
  items,
  startedAt,
});

const ids = (state: BucketState) => state.entries.map((e) => e.item._id);
const choice = { place: 'Kyoto, Japan', latitude: 35, longitude: 135.7 };

describe('bucket list state', () => {
  it('lists only unvisited items; visited ones form the history, newest first', () => {
    const state = run([
      loaded([
        item('a'),
        item('b', { isVisited: true, visitedAt: '2026-01-02T00:00:00Z' }),
        item('c', { isVisited: true, visitedAt: '2026-03-01T00:00:00Z' }),
        item('d'),
      ]),
    ]);
    expect(state.load).toBe('ready');
    expect(ids(state)).toEqual(['a', 'd']);
    expect(state.visited.map((v) => v._id)).toEqual(['c', 'b']);
  });

  it('adding needs a picked place: otherwise "Please select a valid place."', () => {
    let state = run([loaded([]), { type: 'add-start' }]);
    expect(state.addError).toBe('Please select a valid place.');
    expect(state.adding).toBe(false);
    state = run([{ type: 'choose', choice }, { type: 'invalid' }], state);
    expect(state.choice).toBeNull();
    expect(state.addError).toBe(BUCKET_TEXTS.invalidPlace);
    state = run([{ type: 'choose', choice }, { type: 'add-start' }], state);
    expect(state.addError).toBeNull();
    expect(state.adding).toBe(true);
    expect(bucketReducer(state, { type: 'add-start' })).toBe(state); // no second request
  });

  it('an added place comes last (as the server orders it), highlighted until the highlight ends, and the box resets', () => {
    const state = run([
      loaded([item('a')]),
      { type: 'choose', choice },
      { type: 'add-start' },
      { type: 'added', item: item('k', { place: choice.place }) },
    ]);
    expect(ids(state)).toEqual(['a', 'k']);
    expect(state.entries[1]!.highlighted).toBe(true);
    expect(state.choice).toBeNull();
    expect(state.adding).toBe(false);
    expect(state.addedCount).toBe(1);
    const after = bucketReducer(state, { type: 'highlight-end', id: 'k' });
    expect(after.entries[1]!.highlighted).toBe(false);
  });

  it('a failed add keeps the choice and says so', () => {
    const state = run([
      loaded([]),
      { type: 'choose', choice },
      { type: 'add-start' },
      { type: 'add-failed', message: 'Place must be at most 200 characters.' },
    ]);
    expect(state.choice).toEqual(choice);
    expect(state.addError).toBe('Place must be at most 200 characters.');
    expect(bucketReducer(state, { type: 'add-failed' }).addError).toBe(BUCKET_TEXTS.addFailed);
  });

  it('a ticked item leaves once it has animated out and the server confirmed, in either order', () => {
    const start = run([loaded([item('a'), item('b')]), { type: 'tick', id: 'a' }]);
    expect(start.entries[0]!.removing).toEqual({ animated: false, confirmed: false });
    expect(bucketMarkers(start).map((m) => m.id)).toEqual(['b']); // its pin goes at once

    const animatedFirst = run(
      [
        { type: 'remove-animated', id: 'a' },
        { type: 'remove-confirmed', id: 'a', item: item('a', { isVisited: true }) },
      ],
      start,
    );
    const confirmedFirst = run(
      [
        { type: 'remove-confirmed', id: 'a' },
        { type: 'remove-animated', id: 'a' },
      ],
      start,
    );
    for (const state of [animatedFirst, confirmedFirst]) {
      expect(ids(state)).toEqual(['b']);
      expect(state.visited.map((v) => v._id)).toEqual(['a']);
    }
    // still listed (animating) while only one of the two has happened
    expect(ids(run([{ type: 'remove-animated', id: 'a' }], start))).toEqual(['a', 'b']);
    expect(ids(run([{ type: 'remove-confirmed', id: 'a' }], start))).toEqual(['a', 'b']);
  });

  it("a refused tick brings the item back under the label 'Unknown'", () => {
    const state = run([
      loaded([item('a')]),
      { type: 'tick', id: 'a' },
      { type: 'remove-failed', id: 'a' },
      { type: 'remove-animated', id: 'a' }, // the animation's timer still fires: nothing happens
    ]);
    expect(ids(state)).toEqual(['a']);
    expect(state.entries[0]!.removing).toBeNull();
    expect(entryLabel(state.entries[0]!)).toBe('Unknown');
    expect(bucketMarkers(state)[0]!.place).toBe('Place a'); // the pin keeps the real place
    // it can be ticked again
    expect(bucketReducer(state, { type: 'tick', id: 'a' }).entries[0]!.removing).not.toBeNull();
  });

  it('a refresh drops places the server now says are visited (a trip went there)', () => {
    const state = run([
      loaded([item('a'), item('b')]),
      loaded([
        item('a'),
        item('b', { isVisited: true, visitedByTrip: { tripId: 't', name: 'Japan 2026' } }),
      ]),
    ]);
    expect(ids(state)).toEqual(['a']);
    expect(visitedLine(state.visited[0]!, (d) => d)).toBe('visited on Japan 2026');
  });

  it('a refresh asked before a local change does not undo it', () => {
    let state = run([loaded([item('a'), item('b')])]);
    const askedAt = state.version;
    state = run(
      [
        { type: 'choose', choice },
        { type: 'add-start' },
        { type: 'added', item: item('k') },
        { type: 'tick', id: 'a' },
        { type: 'remove-animated', id: 'a' },
        { type: 'remove-confirmed', id: 'a' },
      ],
      state,
    );
    expect(ids(state)).toEqual(['b', 'k']);
    // the old answer: no 'k' yet, 'a' still unvisited
    state = bucketReducer(state, loaded([item('a'), item('b')], askedAt));
    expect(ids(state)).toEqual(['b', 'k']);
    // a newer answer without 'k' means it is gone on the server
    state = bucketReducer(state, loaded([item('b')], state.version));
    expect(ids(state)).toEqual(['b']);
  });

  it('a refresh keeps what is happening on screen (highlight, animating out, Unknown)', () => {
    const state = run([
      loaded([item('a'), item('b')]),
      { type: 'tick', id: 'a' },
      { type: 'added', item: item('k') },
      loaded([item('a'), item('b'), item('k'), item('n')], 0),
    ]);
    // shown entries keep their place; one new to the screen (added elsewhere) comes last
    expect(ids(state)).toEqual(['a', 'b', 'k', 'n']);
    expect(state.entries.find((e) => e.item._id === 'a')!.removing).not.toBeNull();
    expect(state.entries.find((e) => e.item._id === 'k')!.highlighted).toBe(true);
  });

  it('a failed refresh keeps the shown list; a failed first load is an error', () => {
    expect(run([{ type: 'load-failed' }]).load).toBe('failed');
    const shown = run([loaded([item('a')]), { type: 'load-start' }, { type: 'load-failed' }]);
    expect(shown.load).toBe('ready');
    expect(ids(shown)).toEqual(['a']);
  });

  it('markers are the bucket variant {id, lat, lng, place}', () => {
    const state = run([loaded([item('a', { latitude: 48.85, longitude: 2.35, place: 'Paris' })])]);
    expect(bucketMarkers(state)).toEqual([
      { kind: 'bucket', id: 'a', lat: 48.85, lng: 2.35, place: 'Paris' },
    ]);
  });

  it('the history line: the trip that went there, else when it was ticked off', () => {
    const fmt = (iso: string) => iso.slice(0, 10);
    expect(visitedLine(item('a', { visitedByTrip: { tripId: 't', name: 'Alps' } }), fmt)).toBe(
      'visited on Alps',
    );
    expect(visitedLine(item('a', { visitedAt: '2026-05-01T10:00:00Z' }), fmt)).toBe(
      'ticked off 2026-05-01',
    );
  });
});
