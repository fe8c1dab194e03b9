import { useCallback, useEffect, useReducer, useRef } from 'react';
import { fetchFeed } from './api';
import { feedReducer, initialFeedState } from './feedState';

/** The feed's first page on opening (and on Try again), and 'Load more' by the cursor. */
export function useFeed() {
  const [state, dispatch] = useReducer(feedReducer, initialFeedState);
  const stateRef = useRef(state);
  stateRef.current = state;
  const alive = useRef<AbortController | null>(null);

  const load = useCallback(() => {
    alive.current?.abort();
    const controller = new AbortController();
    alive.current = controller;
    dispatch({ type: 'load-start' });
    fetchFeed(null, controller.signal).then(
      (page) => dispatch({ type: 'loaded', page }),
      (e: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Failed to fetch the feed', e);
        dispatch({ type: 'load-failed' });
      },
    );
  }, []);

  useEffect(() => {
    load();
    return () => alive.current?.abort();
  }, [load]);

  const loadMore = useCallback(() => {
    const { nextCursor, loadingMore, load: status } = stateRef.current;
    const signal = alive.current?.signal;
    if (status !== 'ready' || nextCursor === null || loadingMore) return;
    dispatch({ type: 'more-start' });
    fetchFeed(nextCursor, signal).then(
      (page) => {
        if (!signal?.aborted) dispatch({ type: 'more-loaded', page });
      },
      (e: unknown) => {
        if (signal?.aborted) return;
        console.error('Failed to fetch more of the feed', e);
        dispatch({ type: 'more-failed' });
      },
    );
  }, []);

  return { state, retry: load, loadMore };
}
