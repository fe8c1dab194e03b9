import { BucketListLimits } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import {
  ITINERARY_TEXTS,
  draftProblem,
  initialItineraryState,
  isDirty,
  itineraryReducer,
  saveBody,
  type ItineraryAction,
  type ItineraryState,
} from './itineraryState';

const run = (actions: ItineraryAction[], from: ItineraryState = initialItineraryState) =>
  actions.reduce(itineraryReducer, from);

const ready = (itinerary: string[] = []) => run([{ type: 'loaded', itinerary }]);

describe('itinerary editor state', () => {
  it('adds the trimmed text locally and clears the input; blank text adds nothing', () => {
    let state = run(
      [{ type: 'draft', text: '  Tea ceremony  ' }, { type: 'add' }],
      ready(['Fushimi Inari']),
    );
    expect(state.items).toEqual(['Fushimi Inari', 'Tea ceremony']);
    expect(state.draft).toBe('');
    expect(isDirty(state)).toBe(true);
    state = run([{ type: 'draft', text: '   ' }, { type: 'add' }], state);
    expect(state.items).toHaveLength(2);
    expect(state.draft).toBe('');
  });

  it('removes an item locally', () => {
    const state = run([{ type: 'remove', index: 0 }], ready(['a', 'b', 'c']));
    expect(state.items).toEqual(['b', 'c']);
    expect(run([{ type: 'remove', index: 5 }], state)).toBe(state);
  });

  it("saving: 'Saved Successfully!' until the note ends; the list is then the saved one", () => {
    let state = run(
      [{ type: 'draft', text: 'x' }, { type: 'add' }, { type: 'save-start' }],
      ready(),
    );
    expect(state.saving).toBe(true);
    expect(run([{ type: 'draft', text: 'y' }, { type: 'add' }], state).items).toEqual(['x']);
    state = run([{ type: 'save-succeeded', itinerary: ['x'] }], state);
    expect(state.savedNote).toBe(true);
    expect(state.savedCount).toBe(1);
    expect(isDirty(state)).toBe(false);
    expect(run([{ type: 'saved-note-end' }], state).savedNote).toBe(false);
    expect(ITINERARY_TEXTS.saved).toBe('Saved Successfully!');
  });

  it("a failed save keeps the items and shows 'Failed to save itinerary'", () => {
    const state = run(
      [
        { type: 'draft', text: 'x' },
        { type: 'add' },
        { type: 'save-start' },
        { type: 'save-failed' },
      ],
      ready(),
    );
    expect(state.saveError).toBe('Failed to save itinerary');
    expect(state.items).toEqual(['x']);
    expect(state.saving).toBe(false);
  });

  it("a failed load: 'Failed to fetch itinerary.', and nothing can be added or saved", () => {
    const state = run([{ type: 'load-failed' }]);
    expect(state.load).toBe('failed');
    expect(ITINERARY_TEXTS.loadFailed).toBe('Failed to fetch itinerary.');
    expect(run([{ type: 'draft', text: 'x' }, { type: 'add' }], state).items).toEqual([]);
    expect(run([{ type: 'save-start' }], state)).toBe(state);
  });

  it("the contract's limits: item length and item count, checked before sending", () => {
    const long = 'a'.repeat(BucketListLimits.itineraryItemMax + 1);
    const state = run([{ type: 'draft', text: long }, { type: 'add' }], ready());
    expect(state.items).toEqual([]);
    expect(state.draftError).toMatch(String(BucketListLimits.itineraryItemMax));
    expect(state.draft).toBe(long); // kept, to be shortened

    const full = Array.from({ length: BucketListLimits.itineraryItemsMax }, (_, i) => `${i}`);
    expect(draftProblem(full, 'one more')).toMatch(String(BucketListLimits.itineraryItemsMax));
    expect(draftProblem(full.slice(1), 'one more')).toBeNull();

    expect(saveBody('id-1', ['a', 'b'])).toEqual({
      ok: true,
      body: { bucketListId: 'id-1', itinerary: ['a', 'b'] },
    });
    expect(saveBody('id-1', [...full, 'x']).ok).toBe(false);
  });
});
