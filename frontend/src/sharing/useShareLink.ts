import { useEffect, useReducer, useRef } from 'react';
import { failureMessage } from '../trips/api';
import { createShareLink, fetchShareLink, revokeShareLink } from './api';
import {
  initialShare,
  SHARE_TEXTS,
  shareInput,
  shareReducer,
  type ShareAction,
  type ShareState,
} from './shareState';

/**
 * The share panel's state and its requests: the link loaded while `open` (again each time it
 * opens), a create sent once per accepted submit (`busy.run`), the revoke once confirmed
 * (`revoke()`).
 */
export function useShareLink(
  tripId: string,
  open: boolean,
  /** Bump to load the link again (Try again). */
  attempt = 0,
): [ShareState, (action: ShareAction) => void, () => void] {
  const [state, dispatch] = useReducer(shareReducer, undefined, initialShare);
  const latest = useRef(state);
  latest.current = state;
  const sentRun = useRef(0);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    dispatch({ type: 'load-start' });
    fetchShareLink(tripId, controller.signal).then(
      (link) => dispatch({ type: 'loaded', link }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        console.error('Failed to load the share link', error);
        dispatch({ type: 'load-failed', message: failureMessage(error, SHARE_TEXTS.loadFailed) });
      },
    );
    return () => controller.abort();
  }, [tripId, open, attempt]);

  const createRun = state.busy?.kind === 'create' ? state.busy.run : null;
  useEffect(() => {
    // once per run (a remount of the effect, as StrictMode's, does not send it twice)
    if (createRun === null || sentRun.current >= createRun) return;
    sentRun.current = createRun;
    createShareLink(tripId, shareInput(latest.current.form)).then(
      (link) => dispatch({ type: 'created', link }),
      (error: unknown) => {
        console.error('Failed to create the share link', error);
        dispatch({
          type: 'create-failed',
          message: failureMessage(error, SHARE_TEXTS.createFailed),
        });
      },
    );
  }, [tripId, createRun]);

  const revoke = () => {
    const current = latest.current;
    if (!current.confirmingRevoke || current.busy) return;
    dispatch({ type: 'revoke-start' });
    revokeShareLink(tripId).then(
      () => dispatch({ type: 'revoked' }),
      (error: unknown) => {
        console.error('Failed to revoke the share link', error);
        dispatch({
          type: 'revoke-failed',
          message: failureMessage(error, SHARE_TEXTS.revokeFailed),
        });
      },
    );
  };

  return [state, dispatch, revoke];
}
