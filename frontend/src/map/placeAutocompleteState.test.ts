import { describe, expect, it } from 'vitest';
import type { PlaceSuggestion } from './places';
import {
  enterIntent,
  initialPlaceBox,
  listAnnouncement,
  listShown,
  placeBoxReducer,
  type PlaceBoxAction,
} from './placeAutocompleteState';

const oslo = { id: 'o', name: 'Oslo', label: 'Oslo, Norway', detail: 'Norway' } as PlaceSuggestion;
const bergen = { id: 'b', name: 'Bergen', label: 'Bergen, Norway' } as PlaceSuggestion;
const run = (actions: PlaceBoxAction[], from = initialPlaceBox) =>
  actions.reduce(placeBoxReducer, from);
const listed = run([
  { type: 'typed', text: 'Os', searching: true },
  { type: 'search-start' },
  { type: 'results', suggestions: [oslo, bergen] },
]);

describe('the place combobox', () => {
  it('searches, lists and says how many; too short a text empties the list', () => {
    const searching = run([
      { type: 'typed', text: 'Os', searching: true },
      { type: 'search-start' },
    ]);
    expect(listShown(searching)).toBe(true);
    expect(listAnnouncement(searching)).toBe('');
    expect(listed).toMatchObject({ status: 'done', active: -1, open: true });
    expect(listAnnouncement(listed)).toBe('2 suggestions');
    expect(listAnnouncement(run([{ type: 'results', suggestions: [] }], searching))).toBe(
      'No places found',
    );
    expect(run([{ type: 'typed', text: 'O', searching: false }], listed)).toEqual({
      ...initialPlaceBox,
      text: 'O',
    });
    expect(run([{ type: 'search-failed' }], searching)).toMatchObject({
      status: 'error',
      suggestions: [],
    });
  });

  it('moves through the options with wrap-around; Enter picks the active one', () => {
    const first = run([{ type: 'move', key: 'ArrowDown' }], listed);
    expect(first.active).toBe(0);
    expect(run([{ type: 'move', key: 'ArrowUp' }], first).active).toBe(1);
    expect(enterIntent(first)).toEqual({ kind: 'choose', suggestion: oslo });
    expect(run([{ type: 'move', key: 'ArrowDown' }], initialPlaceBox)).toBe(initialPlaceBox);
    expect(run([{ type: 'close' }], first)).toMatchObject({ open: false, active: -1 });
  });

  it('Enter on typed text is invalid; on the chosen text it is nothing', () => {
    expect(enterIntent(run([{ type: 'typed', text: ' Osl ', searching: true }]))).toEqual({
      kind: 'invalid',
      typed: 'Osl',
    });
    const chosen = run([{ type: 'chosen', text: 'Oslo, Norway', chosen: 'Oslo, Norway' }], listed);
    expect(chosen).toMatchObject({ text: 'Oslo, Norway', suggestions: [], status: 'idle' });
    expect(enterIntent(chosen)).toEqual({ kind: 'chosen' });
    // the list opens again on focus only while its suggestions are not a choice made
    expect(run([{ type: 'close' }, { type: 'focus' }], listed).open).toBe(true);
    expect(run([{ type: 'close' }, { type: 'focus' }], chosen).open).toBe(false);
  });
});
