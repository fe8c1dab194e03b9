import type { Trip, TripSummary } from './api';

/**
 * The trip screen's state (`/trip/:id`), free of React so its rules are unit tested: the trip
 * as loaded (shown at once from what the add-trip page or the list handed over, then followed
 * while its photos' display variants are made), the destination chosen on the map, the share
 * dialog, and deleting it after a question (a failure keeps the question open and says why).
 */

export type TripLoad =
  | { status: 'loading' }
  /** `complete` is false while only the list's summary is known (one photo per destination). */
  | { status: 'ready'; trip: Trip | TripSummary; complete: boolean }
  | { status: 'not-found' }
  | { status: 'failed'; message: string };

export interface TripViewState {
  load: TripLoad;
  /** Bumped by Try again: the trip is read again. */
  attempt: number;
  chosenId: string | null;
  sharing: boolean;
  confirming: boolean;
  deleting: boolean;
  deleteError: string | null;
}

export type TripViewAction =
  | { type: 'load-start'; id: string }
  | { type: 'loaded'; trip: Trip }
  | { type: 'load-failed'; notFound: boolean; message: string }
  | { type: 'retry' }
  | { type: 'choose'; id: string }
  | { type: 'share'; open: boolean }
  | { type: 'delete-ask' }
  | { type: 'delete-cancel' }
  | { type: 'delete-start' }
  | { type: 'delete-failed'; message: string };

/**
 * What the add-trip page (the created trip) or the list (its summary) hands over so the trip
 * shows at once.
 */
export interface TripLocationState {
  trip?: Trip;
  summary?: TripSummary;
}

/** The load a failed read ends in, on the trip and edit screens. */
export function failedLoad({
  notFound,
  message,
}: {
  notFound: boolean;
  message: string;
}): { status: 'not-found' } | { status: 'failed'; message: string } {
  return notFound ? { status: 'not-found' } : { status: 'failed', message };
}

export function initialTripView(id: string, handed: TripLocationState | null): TripViewState {
  let load: TripLoad = { status: 'loading' };
  if (handed?.trip?._id === id) load = { status: 'ready', trip: handed.trip, complete: true };
  else if (handed?.summary?._id === id) {
    load = { status: 'ready', trip: handed.summary, complete: false };
  }
  return {
    load,
    attempt: 0,
    chosenId: null,
    sharing: false,
    confirming: false,
    deleting: false,
    deleteError: null,
  };
}

export function tripViewReducer(state: TripViewState, action: TripViewAction): TripViewState {
  switch (action.type) {
    case 'load-start': {
      const { load } = state;
      const kept = load.status === 'ready' && load.trip._id === action.id;
      return { ...state, load: kept ? load : { status: 'loading' }, chosenId: null };
    }
    case 'loaded':
      return { ...state, load: { status: 'ready', trip: action.trip, complete: true } };
    case 'load-failed':
      return { ...state, load: failedLoad(action) };
    case 'retry':
      return { ...state, attempt: state.attempt + 1 };
    case 'choose':
      return { ...state, chosenId: action.id };
    case 'share':
      return { ...state, sharing: action.open };
    case 'delete-ask':
      return { ...state, confirming: true, deleteError: null };
    case 'delete-cancel':
      return { ...state, confirming: false };
    case 'delete-start':
      return { ...state, deleting: true, deleteError: null };
    case 'delete-failed':
      return { ...state, deleting: false, deleteError: action.message };
  }
}
