import { useRefreshWhileVisible } from '../components/useRefreshWhileVisible';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../api/client';
import {
  acceptFriend,
  declineFriend,
  fetchFriendRequests,
  fetchFriends,
  unfriend as unfriendCall,
} from './api';
import { FRIENDS_REFRESH_MS, friendsReducer, initialFriendsState } from './friendsState';

/** The server's message for a refused answer (4xx), else the screen's own text. */
const refusal = (error: unknown) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500
    ? error.serverMessage
    : undefined;

/**
 * The /friends screen's state with its server calls: the first load (page by page, the list and
 * the map growing as the pages come), a refresh every
 * `FRIENDS_REFRESH_MS` while the page is visible and whenever the window regains focus (a
 * request accepted on the other side, a friend's new trip, an unfriending), accepting and
 * declining requests, unfriending after the confirm dialog.
 */
export function useFriends() {
  const [state, dispatch] = useReducer(friendsReducer, initialFriendsState);
  const stateRef = useRef(state);
  stateRef.current = state;
  const refreshing = useRef<AbortController | null>(null);
  const live = useRef(true);

  const refresh = useCallback(() => {
    if (refreshing.current) return; // one at a time
    const controller = new AbortController();
    refreshing.current = controller;
    const startedAt = stateRef.current.version;
    dispatch({ type: 'load-start' });
    const failed = (what: string, type: 'friends-failed' | 'requests-failed') => (e: unknown) => {
      if (controller.signal.aborted) return;
      console.error(`Failed to fetch ${what}`, e);
      dispatch({ type });
    };
    void Promise.all([
      fetchFriends(controller.signal, (friends) => {
        if (!controller.signal.aborted) dispatch({ type: 'friends-page', friends, startedAt });
      }).then(
        (friends) => dispatch({ type: 'friends-loaded', friends, startedAt }),
        failed('friends', 'friends-failed'),
      ),
      fetchFriendRequests(controller.signal).then(
        (requests) => dispatch({ type: 'requests-loaded', requests, startedAt }),
        failed('friend requests', 'requests-failed'),
      ),
    ]).finally(() => {
      if (refreshing.current === controller) refreshing.current = null;
    });
  }, []);

  useEffect(() => {
    live.current = true;
    return () => {
      live.current = false;
      refreshing.current?.abort();
      refreshing.current = null;
    };
  }, []);
  useRefreshWhileVisible(refresh, FRIENDS_REFRESH_MS);

  const respond = useCallback((id: string, choice: 'accept' | 'decline') => {
    const entry = stateRef.current.requests.find((e) => e.request._id === id);
    if (!entry || entry.busy) return;
    dispatch({ type: 'respond-start', id, choice });
    const call =
      choice === 'accept'
        ? acceptFriend(id).then((friend) => dispatch({ type: 'accepted', id, friend }))
        : declineFriend(id).then(() => dispatch({ type: 'declined', id }));
    call.catch((error: unknown) => {
      console.error(`Failed to ${choice} friend request`, error);
      if (live.current) dispatch({ type: 'respond-failed', id, message: refusal(error) });
    });
  }, []);

  const confirmUnfriend = useCallback(() => {
    const pending = stateRef.current.unfriend;
    if (!pending || pending.busy) return;
    const { id } = pending.friend;
    dispatch({ type: 'unfriend-start' });
    unfriendCall(id).then(
      () => live.current && dispatch({ type: 'unfriended', id }),
      (error: unknown) => {
        console.error('Failed to unfriend', error);
        if (live.current) dispatch({ type: 'unfriend-failed', message: refusal(error) });
      },
    );
  }, []);

  return {
    state,
    retry: refresh,
    accept: useCallback((id: string) => respond(id, 'accept'), [respond]),
    decline: useCallback((id: string) => respond(id, 'decline'), [respond]),
    askUnfriend: useCallback((id: string) => dispatch({ type: 'unfriend-ask', id }), []),
    cancelUnfriend: useCallback(() => dispatch({ type: 'unfriend-cancel' }), []),
    confirmUnfriend,
    dismissNotice: useCallback(() => dispatch({ type: 'notice-dismiss' }), []),
  };
}
