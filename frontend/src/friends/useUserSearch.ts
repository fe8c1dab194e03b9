import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../api/client';
import { addFriend, searchUsers } from './api';
import {
  ADDED_LINGER_MS,
  SEARCH_DEBOUNCE_MS,
  initialSearchState,
  searchReducer,
  searchTerm,
} from './searchState';

/**
 * The /addFriends screen's state with its calls: the search runs `SEARCH_DEBOUNCE_MS` after
 * typing stops (a blank query is ignored, an older search in flight is aborted), Add sends a
 * request and the person leaves the results `ADDED_LINGER_MS` after the green check shows.
 */
export function useUserSearch() {
  const [state, dispatch] = useReducer(searchReducer, initialSearchState);
  const stateRef = useRef(state);
  stateRef.current = state;
  const seq = useRef(0);
  const inflight = useRef<AbortController | null>(null);
  const timers = useRef(new Set<number>());
  const live = useRef(true);

  const run = useCallback((query: string) => {
    const term = searchTerm(query);
    if (term === '') return;
    inflight.current?.abort();
    const controller = new AbortController();
    inflight.current = controller;
    const mine = (seq.current = Math.max(seq.current, stateRef.current.seq) + 1);
    dispatch({ type: 'search-start', seq: mine, query: term });
    searchUsers(term, controller.signal).then(
      (users) => dispatch({ type: 'results', seq: mine, users }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Failed to search users', error);
        dispatch({ type: 'search-failed', seq: mine });
      },
    );
  }, []);

  // The debounced search of what is typed.
  const term = searchTerm(state.query);
  useEffect(() => {
    if (term === '') {
      inflight.current?.abort();
      return;
    }
    const timer = window.setTimeout(() => run(term), SEARCH_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [term, run]);

  useEffect(() => {
    live.current = true;
    const pending = timers.current;
    return () => {
      live.current = false;
      inflight.current?.abort();
      pending.forEach((t) => window.clearTimeout(t));
      pending.clear();
    };
  }, []);

  const add = useCallback((id: string) => {
    const entry = stateRef.current.results.find((e) => e.user._id === id);
    if (!entry || entry.phase === 'adding' || entry.phase === 'added') return;
    if (entry.user.status === 'pending') return;
    dispatch({ type: 'add-start', id });
    addFriend(id).then(
      (status) => {
        if (!live.current) return;
        dispatch({ type: 'added', id, friends: status === 'friends' });
        const timer = window.setTimeout(() => {
          timers.current.delete(timer);
          dispatch({ type: 'leave', id });
        }, ADDED_LINGER_MS);
        timers.current.add(timer);
      },
      (error: unknown) => {
        console.error('Failed to add friend', error);
        if (!live.current) return;
        const message =
          error instanceof ApiError && error.status >= 400 && error.status < 500
            ? error.serverMessage
            : undefined;
        dispatch({ type: 'add-failed', id, message });
      },
    );
  }, []);

  return {
    state,
    type: useCallback((query: string) => dispatch({ type: 'type', query }), []),
    /** Searches now (Enter, or Try again after a failure). */
    searchNow: useCallback(() => run(stateRef.current.query), [run]),
    add,
  };
}
