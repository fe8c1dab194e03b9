import { useEffect, useRef, type Dispatch } from 'react';
import type { TripFormAction, TripFormState, UploadProgress } from './tripFormState';

export interface SendOptions {
  signal: AbortSignal;
  onProgress: (progress: UploadProgress) => void;
}

/**
 * Runs `send` once per Save the form's reducer let through (`state.sending.run`): its upload's
 * progress goes to the state, a failure (but not leaving the screen, which aborts it) to
 * `send-failed` with the message `send` rejects with as `failure(error)`. `send` navigates on
 * success.
 */
export function useTripSend<S extends TripFormState>(
  state: S,
  dispatch: Dispatch<TripFormAction>,
  send: (state: S, options: SendOptions) => Promise<void>,
  failure: (error: unknown) => string,
): void {
  const latest = useRef({ state, send, failure });
  latest.current = { state, send, failure };
  const run = state.sending?.run ?? null;

  useEffect(() => {
    if (run === null) return;
    const controller = new AbortController();
    const { state: current, send: start, failure: describe } = latest.current;
    start(current, {
      signal: controller.signal,
      onProgress: (p) => dispatch({ type: 'progress', progress: p.total > 0 ? p : null }),
    }).catch((error: unknown) => {
      if (controller.signal.aborted) return;
      console.error('Failed to save the trip', error);
      dispatch({ type: 'send-failed', message: describe(error) });
    });
    return () => controller.abort();
  }, [run, dispatch]);
}
