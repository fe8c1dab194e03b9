import { useEffect, useRef, type Dispatch } from 'react';
import type { TripFormAction, UploadProgress } from './tripFormState';

export interface SendOptions {
  signal: AbortSignal;
  /** The upload's progress (null: under way, size unknown). */
  onProgress: (progress: UploadProgress | null) => void;
}

/**
 * Runs `send` once per Save the form's reducer let through (`run`: `state.sending.run`), the
 * `send` of the render that started it: its upload's progress goes to the state; a failure
 * (but not leaving the screen, which aborts it) to `send-failed`, with `failure(error)` as the
 * message. `send` navigates on success.
 */
export function useTripSend(
  run: number | null,
  dispatch: Dispatch<TripFormAction>,
  send: (options: SendOptions) => Promise<void>,
  failure: (error: unknown) => string,
): void {
  const latest = useRef({ send, failure });
  latest.current = { send, failure };

  useEffect(() => {
    if (run === null) return;
    const controller = new AbortController();
    const { send: start, failure: describe } = latest.current;
    start({
      signal: controller.signal,
      onProgress: (p) =>
        dispatch({ type: 'progress', progress: p !== null && p.total > 0 ? p : null }),
    }).catch((error: unknown) => {
      if (controller.signal.aborted) return;
      console.error('Failed to save the trip', error);
      dispatch({ type: 'send-failed', message: describe(error) });
    });
    return () => controller.abort();
  }, [run, dispatch]);
}
