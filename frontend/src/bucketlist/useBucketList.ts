import { useRefreshWhileVisible } from '../components/useRefreshWhileVisible';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../api/client';
import type { PlaceChoice } from '../map/places';
import { addBucketItem, fetchBucketList, tickOffBucketItem } from './api';
import {
  BUCKET_HIGHLIGHT_MS,
  BUCKET_REFRESH_MS,
  BUCKET_REMOVE_ANIMATION_MS,
  bucketReducer,
  initialBucketState,
} from './listState';

/**
 * The bucket list screen's state with its server calls and timers: the first load, a refresh
 * every `BUCKET_REFRESH_MS` while the page is visible and whenever the window regains focus
 * (a place a trip visited leaves the list by itself), adding a place, ticking one off.
 */
export function useBucketList() {
  const [state, dispatch] = useReducer(bucketReducer, initialBucketState);
  const stateRef = useRef(state);
  stateRef.current = state;
  const timers = useRef(new Set<number>());
  const refreshing = useRef<AbortController | null>(null);
  const live = useRef(true);

  const later = useCallback((ms: number, run: () => void) => {
    const timer = window.setTimeout(() => {
      timers.current.delete(timer);
      run();
    }, ms);
    timers.current.add(timer);
  }, []);

  const refresh = useCallback(() => {
    if (refreshing.current) return; // one at a time
    const controller = new AbortController();
    refreshing.current = controller;
    const startedAt = stateRef.current.version;
    dispatch({ type: 'load-start' });
    fetchBucketList(controller.signal)
      .then(
        (items) => dispatch({ type: 'loaded', items, startedAt }),
        (error: unknown) => {
          if (controller.signal.aborted) return;
          console.error('Failed to fetch bucket list', error);
          dispatch({ type: 'load-failed' });
        },
      )
      .finally(() => {
        if (refreshing.current === controller) refreshing.current = null;
      });
  }, []);

  useEffect(() => {
    live.current = true;
    const pending = timers.current;
    return () => {
      live.current = false;
      refreshing.current?.abort();
      refreshing.current = null;
      pending.forEach((t) => window.clearTimeout(t));
      pending.clear();
    };
  }, []);
  useRefreshWhileVisible(refresh, BUCKET_REFRESH_MS);

  const choose = useCallback((place: PlaceChoice | null) => {
    dispatch({
      type: 'choose',
      choice: place
        ? { place: place.label, latitude: place.latitude, longitude: place.longitude }
        : null,
    });
  }, []);

  const invalid = useCallback(() => dispatch({ type: 'invalid' }), []);

  const add = useCallback(async () => {
    const { choice, adding } = stateRef.current;
    dispatch({ type: 'add-start' });
    if (!choice || adding) return;
    try {
      const item = await addBucketItem(choice);
      if (!live.current) return;
      dispatch({ type: 'added', item });
      later(BUCKET_HIGHLIGHT_MS, () => dispatch({ type: 'highlight-end', id: item._id }));
    } catch (error) {
      console.error('Failed to add to bucket list', error);
      if (!live.current) return;
      const message =
        error instanceof ApiError && error.status === 400 ? error.serverMessage : undefined;
      dispatch({ type: 'add-failed', message });
    }
  }, [later]);

  const tickOff = useCallback(
    (id: string) => {
      const entry = stateRef.current.entries.find((e) => e.item._id === id);
      if (!entry || entry.removing) return;
      dispatch({ type: 'tick', id });
      later(BUCKET_REMOVE_ANIMATION_MS, () => dispatch({ type: 'remove-animated', id }));
      tickOffBucketItem(id).then(
        (item) => live.current && dispatch({ type: 'remove-confirmed', id, item }),
        (error: unknown) => {
          console.error('Failed to delete bucket list item', error);
          if (live.current) dispatch({ type: 'remove-failed', id });
        },
      );
    },
    [later],
  );

  return { state, choose, invalid, add, tickOff, retry: refresh };
}
