import { useEffect, useRef, type Dispatch } from 'react';
import type { SettingsFormAction } from './settingsState';

/** What a settings form's request ended with: the note to show and the values to start from. */
export interface Sent<V> {
  notice: string;
  values: V;
}

/**
 * Runs `send` each time the form's reducer starts a request (`saving` turns true): its answer
 * goes to `saved`, a failure to `failed` with `failure(error)` (a message, maybe about one
 * field). A request still under way when the screen is left is not answered to the form.
 */
export function useFormSend<V>(
  saving: boolean,
  dispatch: Dispatch<SettingsFormAction<V>>,
  send: () => Promise<Sent<V> | null>,
  failure: (error: unknown) => { message: string; field?: keyof V & string },
): void {
  const latest = useRef({ send, failure });
  latest.current = { send, failure };
  useEffect(() => {
    if (!saving) return;
    let live = true;
    const { send: start, failure: describe } = latest.current;
    start().then(
      (sent) => {
        if (live && sent) dispatch({ type: 'saved', ...sent });
      },
      (error: unknown) => {
        if (!live) return;
        console.error('Failed to save the settings', error);
        dispatch({ type: 'failed', ...describe(error) });
      },
    );
    return () => {
      live = false;
    };
  }, [saving, dispatch]);
}
