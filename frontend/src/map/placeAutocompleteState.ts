import { moveActive, type PlaceSuggestion } from './places';

/**
 * The place combobox's state, free of React so its rules are unit tested: the text, the
 * suggestions of the last search and its status, whether the list is open, the active option
 * (-1: none) and the text of the last valid choice (Enter on it again is not a new attempt).
 */

export type SearchStatus = 'idle' | 'loading' | 'done' | 'error';

export interface PlaceBoxState {
  text: string;
  suggestions: PlaceSuggestion[];
  status: SearchStatus;
  open: boolean;
  active: number;
  chosenText: string | null;
}

export type PlaceBoxAction =
  /** The text was edited; `searching`: a search will follow (else the list empties). */
  | { type: 'typed'; text: string; searching: boolean }
  | { type: 'search-start' }
  | { type: 'results'; suggestions: PlaceSuggestion[] }
  | { type: 'search-failed' }
  /** A suggestion is being resolved: the list closes. */
  | { type: 'choosing' }
  /** The suggestion has no location: its label stays in the input. */
  | { type: 'no-location'; label: string }
  /** A valid choice: `text` shown (empty when the box clears itself), `chosen` if it stays. */
  | { type: 'chosen'; text: string; chosen: string | null }
  | { type: 'move'; key: 'ArrowDown' | 'ArrowUp' }
  | { type: 'hover'; index: number }
  | { type: 'close' }
  | { type: 'focus' };

export const initialPlaceBox: PlaceBoxState = {
  text: '',
  suggestions: [],
  status: 'idle',
  open: false,
  active: -1,
  chosenText: null,
};

export function placeBoxReducer(state: PlaceBoxState, action: PlaceBoxAction): PlaceBoxState {
  switch (action.type) {
    case 'typed':
      if (action.searching) return { ...state, text: action.text, chosenText: null };
      return { ...initialPlaceBox, text: action.text };
    case 'search-start':
      return { ...state, status: 'loading', open: true };
    case 'results':
      return { ...state, suggestions: action.suggestions, active: -1, status: 'done' };
    case 'search-failed':
      return { ...state, suggestions: [], status: 'error' };
    case 'choosing':
    case 'close':
      return { ...state, open: false, active: -1 };
    case 'no-location':
      return { ...state, text: action.label };
    case 'chosen':
      return {
        ...state,
        text: action.text,
        chosenText: action.chosen,
        suggestions: [],
        status: 'idle',
      };
    case 'move': {
      const count = state.suggestions.length;
      if (count === 0) return state;
      return { ...state, open: true, active: moveActive(state.active, count, action.key) };
    }
    case 'hover':
      return { ...state, active: action.index };
    case 'focus':
      return state.suggestions.length > 0 && state.chosenText === null
        ? { ...state, open: true }
        : state;
  }
}

/** What Enter means: pick the active option, nothing (a valid choice stands), or invalid. */
export function enterIntent(
  state: PlaceBoxState,
):
  | { kind: 'choose'; suggestion: PlaceSuggestion }
  | { kind: 'chosen' }
  | { kind: 'invalid'; typed: string } {
  const suggestion = state.open && state.active >= 0 ? state.suggestions[state.active] : undefined;
  if (suggestion) return { kind: 'choose', suggestion };
  if (state.chosenText !== null && state.chosenText === state.text) return { kind: 'chosen' };
  return { kind: 'invalid', typed: state.text.trim() };
}

/** Whether the list shows (searching, or its answer). */
export const listShown = (state: PlaceBoxState): boolean =>
  state.open && (state.status === 'loading' || state.status === 'done');

/** What a screen reader hears of the list. */
export function listAnnouncement(state: PlaceBoxState): string {
  if (state.status !== 'done' || !state.open) return '';
  return state.suggestions.length === 0
    ? 'No places found'
    : `${state.suggestions.length} suggestions`;
}
