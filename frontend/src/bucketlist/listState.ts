import type { BucketListItem } from '@wayfarer/contracts';

/**
 * The bucket list screen's state, free of React so its rules are
 * unit tested:
 *
 * - only items that are not visited are listed; visited ones form the history;
 * - a place must be picked from the suggestions before it is added, otherwise
 *   'Please select a valid place.';
 * - an added place shows with a highlight for about 1 s;
 * - ticking an item's checkbox animates it out (about 0.9 s) while the server marks it; it leaves
 *   the list once both are done; if the server refuses, it comes back under the label 'Unknown';
 * - the list is refreshed from the server now and then (a trip near a place marks it visited on
 *   the server: it then leaves the list by itself). A refresh never undoes what happened locally
 *   after it started (a place added meanwhile stays, one ticked off stays gone).
 */

/** An item as `GET /api/bucketlist` answers it (with its visit history). */
export type BucketItem = BucketListItem;

/** How long a newly added place is highlighted. */
export const BUCKET_HIGHLIGHT_MS = 1000;
/** How long a ticked item takes to animate out of the list. */
export const BUCKET_REMOVE_ANIMATION_MS = 900;
/** How often the open screen asks the server again (places visited by a trip leave the list). */
export const BUCKET_REFRESH_MS = 10_000;

export const BUCKET_TEXTS = {
  invalidPlace: 'Please select a valid place.',
  empty: 'Your bucket list is empty. Start adding places!',
  unknown: 'Unknown',
  loadFailed: 'Could not load your bucket list.',
  addFailed: 'Could not add this place. Please try again.',
  removeFailed: (place: string) => `Could not tick ${place} off. Please try again.`,
} as const;

/** One listed item and what is happening to it on screen. */
export interface Entry {
  item: BucketItem;
  /** Just added: highlighted until the highlight ends. */
  highlighted: boolean;
  /** Ticked: animating out while the server marks it. */
  removing: null | { animated: boolean; confirmed: boolean };
  /** A tick the server refused: the item came back under the label 'Unknown'. */
  unknown: boolean;
  /** Local version at which this entry was added on this screen (0: from the server). */
  addedAt: number;
}

export interface BucketState {
  load: 'loading' | 'failed' | 'ready';
  entries: Entry[];
  /** Visited items (the history), newest first. */
  visited: BucketItem[];
  /** The place picked in the search box, not added yet. */
  choice: { place: string; latitude: number; longitude: number } | null;
  /** 'Please select a valid place.' or an add failure, shown under the search box. */
  addError: string | null;
  adding: boolean;
  /** Bumped by every local change a refresh started earlier must not undo. */
  version: number;
  /** Ids ticked off on this screen: a refresh that started earlier doesn't bring them back. */
  gone: string[];
  /** Bumped after each successful add (the search box is emptied then). */
  addedCount: number;
}

export type BucketAction =
  | { type: 'load-start' }
  | { type: 'loaded'; items: BucketItem[]; startedAt: number }
  | { type: 'load-failed' }
  | { type: 'choose'; choice: BucketState['choice'] }
  | { type: 'invalid' }
  | { type: 'add-start' }
  | { type: 'added'; item: BucketItem }
  | { type: 'add-failed'; message?: string }
  | { type: 'highlight-end'; id: string }
  | { type: 'tick'; id: string }
  | { type: 'remove-animated'; id: string }
  | { type: 'remove-confirmed'; id: string; item?: BucketItem | null }
  | { type: 'remove-failed'; id: string };

export const initialBucketState: BucketState = {
  load: 'loading',
  entries: [],
  visited: [],
  choice: null,
  addError: null,
  adding: false,
  version: 0,
  gone: [],
  addedCount: 0,
};

const fromServer = (item: BucketItem): Entry => ({
  item,
  highlighted: false,
  removing: null,
  unknown: false,
  addedAt: 0,
});

function byVisitedDesc(a: BucketItem, b: BucketItem): number {
  return (b.visitedAt ?? '').localeCompare(a.visitedAt ?? '');
}

/**
 * Merges a server answer into the screen, keeping what happened locally since it was asked:
 * entries already shown keep their place and their phase (highlight, animating out, 'Unknown'),
 * places new to the screen come last, as the server orders them (oldest first).
 */
function merge(state: BucketState, items: BucketItem[], startedAt: number): BucketState {
  const gone = new Set(state.gone);
  const fresh = new Map(
    items.filter((item) => !item.isVisited && !gone.has(item._id)).map((i) => [i._id, i]),
  );
  const kept: Entry[] = [];
  for (const entry of state.entries) {
    const item = fresh.get(entry.item._id);
    if (item) {
      kept.push({ ...entry, item });
      fresh.delete(item._id);
    } else if (entry.addedAt > startedAt && !items.some((i) => i._id === entry.item._id)) {
      // added here after this answer was asked for: not in it yet, still listed
      kept.push(entry);
    }
  }
  const entries = [...kept, ...Array.from(fresh.values(), fromServer)];
  const visited = items.filter((item) => item.isVisited).sort(byVisitedDesc);
  return { ...state, load: 'ready', entries, visited };
}

/** Drops an entry once it has animated out and the server has confirmed. */
function settle(state: BucketState, id: string): BucketState {
  const entry = state.entries.find((e) => e.item._id === id);
  if (!entry?.removing?.animated || !entry.removing.confirmed) return state;
  return {
    ...state,
    entries: state.entries.filter((e) => e !== entry),
    visited: [{ ...entry.item, isVisited: true }, ...state.visited],
  };
}

function update(state: BucketState, id: string, change: (entry: Entry) => Entry): BucketState {
  let changed = false;
  const entries = state.entries.map((entry) => {
    if (entry.item._id !== id) return entry;
    const next = change(entry);
    if (next !== entry) changed = true;
    return next;
  });
  return changed ? { ...state, entries } : state;
}

/** The transitions. Anything not allowed in the current state returns the same object. */
export function bucketReducer(state: BucketState, action: BucketAction): BucketState {
  switch (action.type) {
    case 'load-start':
      // A refresh of a shown list keeps it on screen; only a failed or first load shows loading.
      return state.load === 'ready' ? state : { ...state, load: 'loading' };
    case 'loaded':
      return merge(state, action.items, action.startedAt);
    case 'load-failed':
      // A failed refresh leaves the shown list as it is.
      return state.load === 'ready' ? state : { ...state, load: 'failed' };
    case 'choose':
      return { ...state, choice: action.choice, addError: null };
    case 'invalid':
      return { ...state, choice: null, addError: BUCKET_TEXTS.invalidPlace };
    case 'add-start':
      if (state.adding) return state;
      if (!state.choice) return { ...state, addError: BUCKET_TEXTS.invalidPlace };
      return { ...state, adding: true, addError: null };
    case 'added': {
      const version = state.version + 1;
      const entry: Entry = { ...fromServer(action.item), highlighted: true, addedAt: version };
      return {
        ...state,
        adding: false,
        choice: null,
        version,
        addedCount: state.addedCount + 1,
        // last, where the server's list (oldest first) puts it after a reload
        entries: [...state.entries.filter((e) => e.item._id !== action.item._id), entry],
      };
    }
    case 'add-failed':
      return { ...state, adding: false, addError: action.message ?? BUCKET_TEXTS.addFailed };
    case 'highlight-end':
      return update(state, action.id, (e) => (e.highlighted ? { ...e, highlighted: false } : e));
    case 'tick': {
      const next = update(state, action.id, (e) =>
        e.removing
          ? e
          : { ...e, highlighted: false, removing: { animated: false, confirmed: false } },
      );
      return next === state ? state : { ...next, version: state.version + 1 };
    }
    case 'remove-animated':
      return settle(
        update(state, action.id, (e) =>
          e.removing && !e.removing.animated
            ? { ...e, removing: { ...e.removing, animated: true } }
            : e,
        ),
        action.id,
      );
    case 'remove-confirmed': {
      const next = update(state, action.id, (e) =>
        e.removing && !e.removing.confirmed
          ? {
              ...e,
              // the server's answer: the item now visited, with the time
              item: action.item && action.item._id === action.id ? action.item : e.item,
              removing: { ...e.removing, confirmed: true },
            }
          : e,
      );
      if (next === state) return state;
      return settle({ ...next, gone: [...state.gone, action.id] }, action.id);
    }
    case 'remove-failed':
      // a failed removal: the item returns, labelled 'Unknown'
      return update(state, action.id, (e) =>
        e.removing ? { ...e, removing: null, unknown: true } : e,
      );
  }
}

/** The label an entry is shown under: its place, or 'Unknown' after a refused tick. */
export function entryLabel(entry: Entry): string {
  return entry.unknown ? BUCKET_TEXTS.unknown : entry.item.place;
}

/** The pins of the /bucketlist map: listed places not on their way out. */
export function bucketMarkers(state: BucketState) {
  return state.entries
    .filter((e) => !e.removing)
    .map((e) => ({
      kind: 'bucket' as const,
      id: e.item._id,
      lat: e.item.latitude,
      lng: e.item.longitude,
      place: e.item.place,
    }));
}

/** The history line of a visited place: 'visited on <trip name>', or when it was ticked off. */
export function visitedLine(item: BucketItem, formatDate: (iso: string) => string): string {
  if (item.visitedByTrip?.name) return `visited on ${item.visitedByTrip.name}`;
  if (item.visitedAt) return `ticked off ${formatDate(item.visitedAt)}`;
  return 'ticked off';
}
