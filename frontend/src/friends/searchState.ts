import type { SearchUser } from './api';

/**
 * The /addFriends screen's state, free of React so its rules are
 * unit tested:
 *
 * - the search runs a moment after typing stops; an empty (or blank) query is ignored: no call,
 *   no results, no 'No results' either;
 * - only the answer to the latest query is shown (an older one arriving late is dropped);
 * - a person with a pending request shows as pending, without Add;
 * - after Add the person shows a green check, then leaves the results;
 * - a failed search or Add says so (the original only logged it).
 */

/** How long typing must pause before the search runs. */
export const SEARCH_DEBOUNCE_MS = 300;
/** How long the green check shows before the person leaves the results. */
export const ADDED_LINGER_MS = 1200;

export const SEARCH_TEXTS = {
  noResults: 'No results, try searching for a different name.',
  searchFailed: 'Could not search for people. Please try again.',
  addFailed: 'Could not send the friend request. Please try again.',
  hint: 'Type a name to find people to add.',
  sent: 'Friend request sent. Search for someone else?',
} as const;

export interface ResultEntry {
  user: SearchUser;
  phase: 'idle' | 'adding' | 'added' | 'failed';
  error: string | null;
  /** Added someone who had asked first: now friends (not a pending request). */
  friends?: boolean;
}

export interface SearchState {
  /** What is typed. */
  query: string;
  status: 'idle' | 'searching' | 'done' | 'failed';
  /** The query the shown results answer. */
  searched: string;
  results: ResultEntry[];
  /** Number of the latest search asked: answers to older ones are dropped. */
  seq: number;
  /** Requests sent from these results (once they have all left, that is what shows). */
  sent: number;
}

export type SearchAction =
  | { type: 'type'; query: string }
  | { type: 'search-start'; seq: number; query: string }
  | { type: 'results'; seq: number; users: SearchUser[] }
  | { type: 'search-failed'; seq: number }
  | { type: 'add-start'; id: string }
  | { type: 'added'; id: string; friends?: boolean }
  | { type: 'add-failed'; id: string; message?: string }
  | { type: 'leave'; id: string };

export const initialSearchState: SearchState = {
  query: '',
  status: 'idle',
  searched: '',
  results: [],
  seq: 0,
  sent: 0,
};

/** The query as sent: trimmed; '' means nothing to search. */
export function searchTerm(query: string): string {
  return query.trim();
}

function update(state: SearchState, id: string, change: (e: ResultEntry) => ResultEntry) {
  let changed = false;
  const results = state.results.map((entry) => {
    if (entry.user._id !== id) return entry;
    const next = change(entry);
    if (next !== entry) changed = true;
    return next;
  });
  return changed ? { ...state, results } : state;
}

export function searchReducer(state: SearchState, action: SearchAction): SearchState {
  switch (action.type) {
    case 'type':
      if (searchTerm(action.query) === '') {
        // ignored: nothing searched, an answer on its way is dropped
        return {
          ...state,
          query: action.query,
          status: 'idle',
          searched: '',
          results: [],
          seq: state.seq + 1,
        };
      }
      return { ...state, query: action.query };
    case 'search-start':
      if (action.seq <= state.seq || searchTerm(action.query) === '') return state;
      return {
        ...state,
        status: 'searching',
        seq: action.seq,
        searched: searchTerm(action.query),
        sent: 0,
      };
    case 'results': {
      if (action.seq !== state.seq) return state;
      // people being added or just added stay as they are until they leave
      const busy = new Map(
        state.results
          .filter((e) => e.phase === 'adding' || e.phase === 'added')
          .map((e) => [e.user._id, e]),
      );
      const results = action.users.map(
        (user): ResultEntry => busy.get(user._id) ?? { user, phase: 'idle', error: null },
      );
      return { ...state, status: 'done', results };
    }
    case 'search-failed':
      return action.seq === state.seq ? { ...state, status: 'failed', results: [] } : state;
    case 'add-start':
      return update(state, action.id, (e) =>
        e.phase === 'idle' || e.phase === 'failed'
          ? e.user.status === 'pending'
            ? e
            : { ...e, phase: 'adding', error: null }
          : e,
      );
    case 'added': {
      const next = update(state, action.id, (e) =>
        e.phase === 'adding' ? { ...e, phase: 'added', friends: action.friends === true } : e,
      );
      return next === state ? state : { ...next, sent: state.sent + 1 };
    }
    case 'add-failed':
      return update(state, action.id, (e) =>
        e.phase === 'adding'
          ? { ...e, phase: 'failed', error: action.message ?? SEARCH_TEXTS.addFailed }
          : e,
      );
    case 'leave': {
      const results = state.results.filter(
        (e) => !(e.user._id === action.id && e.phase === 'added'),
      );
      return results.length === state.results.length ? state : { ...state, results };
    }
  }
}

/** What the results area shows. */
export function searchView(
  state: SearchState,
): 'hint' | 'searching' | 'failed' | 'empty' | 'sent' | 'results' {
  if (state.status === 'idle') return 'hint';
  if (state.status === 'failed') return 'failed';
  if (state.results.length > 0) return 'results';
  if (state.status === 'searching') return 'searching';
  return state.sent > 0 ? 'sent' : 'empty';
}
