import { useCallback, useEffect, useReducer, useState } from 'react';
import { ApiError } from '../api/client';
import { fetchFriends } from '../friends/api';
import { fetchFriendStats, fetchStats } from './api';
import { ATLAS_TEXTS, atlasReducer, initialAtlasState } from './atlasState';
import { loadWorldShapes } from './loadWorldShapes';
import type { CountryShape } from './worldShapes';

/** The API's `message` when it sent one, else the screen's own text. */
const messageOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.serverMessage ? error.serverMessage : fallback;

/**
 * The /atlas screen's calls: the user's figures (again on `retry`), the friends for the picker,
 * and the chosen friend's figures (again on `retryFriend`). Rules in `atlasState.ts`.
 */
export function useAtlas() {
  const [state, dispatch] = useReducer(atlasReducer, initialAtlasState);
  const [statsAttempt, setStatsAttempt] = useState(0);
  const [friendAttempt, setFriendAttempt] = useState(0);

  useEffect(() => {
    const abort = new AbortController();
    dispatch({ type: 'statsLoading' });
    fetchStats(abort.signal).then(
      (stats) => dispatch({ type: 'statsLoaded', stats }),
      (error: unknown) => {
        if (!abort.signal.aborted)
          dispatch({ type: 'statsFailed', message: messageOf(error, ATLAS_TEXTS.loadFailed) });
      },
    );
    return () => abort.abort();
  }, [statsAttempt]);

  useEffect(() => {
    const abort = new AbortController();
    fetchFriends(abort.signal).then(
      (friends) =>
        dispatch({
          type: 'friendsLoaded',
          friends: friends.map(({ id, name }) => ({ id, name })),
        }),
      (error: unknown) => {
        if (!abort.signal.aborted)
          dispatch({
            type: 'friendsFailed',
            message: messageOf(error, ATLAS_TEXTS.friendsFailed),
          });
      },
    );
    return () => abort.abort();
  }, []);

  const { friendId } = state;
  useEffect(() => {
    if (friendId === null) return;
    const abort = new AbortController();
    fetchFriendStats(friendId, abort.signal).then(
      (stats) => dispatch({ type: 'friendLoaded', friendId, stats }),
      (error: unknown) => {
        if (!abort.signal.aborted)
          dispatch({
            type: 'friendFailed',
            friendId,
            message: messageOf(error, ATLAS_TEXTS.friendFailed),
          });
      },
    );
    return () => abort.abort();
  }, [friendId, friendAttempt]);

  const pickFriend = useCallback(
    (id: string) => dispatch({ type: 'pickFriend', friendId: id || null }),
    [],
  );
  const retry = useCallback(() => setStatsAttempt((n) => n + 1), []);
  const retryFriend = useCallback(() => {
    if (friendId === null) return;
    dispatch({ type: 'pickFriend', friendId: null });
    dispatch({ type: 'pickFriend', friendId });
    setFriendAttempt((n) => n + 1);
  }, [friendId]);

  return { state, pickFriend, retry, retryFriend };
}

/** The map's country shapes: null while they load, 'failed' when they could not. */
export function useWorldShapes(): CountryShape[] | null | 'failed' {
  const [shapes, setShapes] = useState<CountryShape[] | null | 'failed'>(null);
  useEffect(() => {
    let live = true;
    loadWorldShapes().then(
      (loaded) => live && setShapes(loaded),
      () => live && setShapes('failed'),
    );
    return () => {
      live = false;
    };
  }, []);
  return shapes;
}
