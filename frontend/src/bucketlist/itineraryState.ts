import { BucketListLimits, ItineraryEntry, ItineraryInput } from '@wayfarer/contracts';

/**
 * The itinerary editor's state, free of React:
 *
 * - the saved itinerary is loaded when the window opens; 'Failed to fetch itinerary.' if not;
 * - items are added locally (trimmed text, non-empty; the input is cleared after adding) and
 *   removed locally; nothing reaches the server until the separate save button;
 * - saving sends the full list; 'Saved Successfully!' shows for 2 s, 'Failed to save itinerary'
 *   if the server refuses (shown in the window, not only in the console);
 * - the limits are the contract's (`ItineraryInput`): checked before anything is sent.
 */

/** How long 'Saved Successfully!' stays. */
export const ITINERARY_SAVED_NOTE_MS = 2000;

export const ITINERARY_TEXTS = {
  loadFailed: 'Failed to fetch itinerary.',
  saveFailed: 'Failed to save itinerary',
  saved: 'Saved Successfully!',
  empty: 'No plans yet. Add the first thing to do here.',
} as const;

export interface ItineraryState {
  load: 'loading' | 'ready' | 'failed';
  /** The list being edited (saved or not). */
  items: string[];
  /** What was last loaded or saved: `items` differs from it until the next save. */
  saved: string[];
  /** The text of the "add an item" input. */
  draft: string;
  /** Why the draft could not be added (too long, list full); null otherwise. */
  draftError: string | null;
  saving: boolean;
  saveError: string | null;
  /** 'Saved Successfully!' is showing. */
  savedNote: boolean;
  /** Bumped on each successful save (the note's timer restarts). */
  savedCount: number;
}

export type ItineraryAction =
  | { type: 'load-start' }
  | { type: 'loaded'; itinerary: string[] }
  | { type: 'load-failed' }
  | { type: 'draft'; text: string }
  | { type: 'add' }
  | { type: 'remove'; index: number }
  | { type: 'save-start' }
  | { type: 'save-succeeded'; itinerary: string[] }
  | { type: 'save-failed'; message?: string }
  | { type: 'saved-note-end' };

export const initialItineraryState: ItineraryState = {
  load: 'loading',
  items: [],
  saved: [],
  draft: '',
  draftError: null,
  saving: false,
  saveError: null,
  savedNote: false,
  savedCount: 0,
};

/** Whether the list differs from the saved one. */
export function isDirty(state: ItineraryState): boolean {
  return (
    state.items.length !== state.saved.length || state.items.some((v, i) => v !== state.saved[i])
  );
}

/** The first problem with the draft as the next item (the contract's rule), or null. */
export function draftProblem(items: readonly string[], draft: string): string | null {
  if (items.length >= BucketListLimits.itineraryItemsMax) {
    return `An itinerary holds at most ${BucketListLimits.itineraryItemsMax} items.`;
  }
  const entry = ItineraryEntry.safeParse(draft);
  return entry.success ? null : (entry.error.issues[0]?.message ?? ITINERARY_TEXTS.saveFailed);
}

/** The body `POST /api/itinerary` gets, or the contract's message when it would be refused. */
export function saveBody(
  bucketListId: string,
  items: readonly string[],
): { ok: true; body: ItineraryInput } | { ok: false; message: string } {
  const parsed = ItineraryInput.safeParse({ bucketListId, itinerary: items });
  if (parsed.success) return { ok: true, body: parsed.data };
  return { ok: false, message: parsed.error.issues[0]?.message ?? ITINERARY_TEXTS.saveFailed };
}

/** The transitions. Anything not allowed in the current state returns the same object. */
export function itineraryReducer(state: ItineraryState, action: ItineraryAction): ItineraryState {
  switch (action.type) {
    case 'load-start':
      return { ...state, load: 'loading' };
    case 'loaded':
      return { ...state, load: 'ready', items: action.itinerary, saved: action.itinerary };
    case 'load-failed':
      return { ...state, load: 'failed' };
    case 'draft':
      return { ...state, draft: action.text, draftError: null };
    case 'add': {
      if (state.load !== 'ready' || state.saving) return state;
      const text = state.draft.trim();
      if (text === '') return state.draft === '' ? state : { ...state, draft: '' };
      const problem = draftProblem(state.items, text);
      if (problem) return { ...state, draftError: problem };
      return {
        ...state,
        items: [...state.items, text],
        draft: '',
        draftError: null,
        saveError: null,
        savedNote: false,
      };
    }
    case 'remove':
      if (state.saving || action.index < 0 || action.index >= state.items.length) return state;
      return {
        ...state,
        items: state.items.filter((_, i) => i !== action.index),
        saveError: null,
        savedNote: false,
      };
    case 'save-start':
      if (state.load !== 'ready' || state.saving) return state;
      return { ...state, saving: true, saveError: null, savedNote: false };
    case 'save-succeeded':
      return {
        ...state,
        saving: false,
        items: action.itinerary,
        saved: action.itinerary,
        savedNote: true,
        savedCount: state.savedCount + 1,
      };
    case 'save-failed':
      return {
        ...state,
        saving: false,
        saveError: action.message ?? ITINERARY_TEXTS.saveFailed,
      };
    case 'saved-note-end':
      return state.savedNote ? { ...state, savedNote: false } : state;
  }
}
