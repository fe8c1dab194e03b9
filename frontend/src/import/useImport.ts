import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../api/client';
import { uploadImport } from './api';
import {
  IMPORT_TEXTS,
  importFileProblem,
  importReducer,
  initialImportState,
  type ImportState,
} from './importState';

export interface Importer {
  state: ImportState;
  /** Sends `file` (one import at a time; a file the service would refuse is not sent). */
  start(file: File): void;
  dismiss(): void;
}

/**
 * The Import's state and its one upload; `onImported` runs after trips were created (the
 * list reloads). Leaving the screen cancels an upload under way.
 */
export function useImport(onImported: () => void): Importer {
  const [state, dispatch] = useReducer(importReducer, initialImportState);
  const runs = useRef(0);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    (file: File) => {
      const run = ++runs.current;
      dispatch({ type: 'start', run, fileName: file.name });
      const problem = importFileProblem(file);
      if (problem) {
        dispatch({ type: 'failed', run, message: problem });
        return;
      }
      controller.current?.abort();
      const abort = (controller.current = new AbortController());
      uploadImport(file, {
        signal: abort.signal,
        onProgress: (progress) => dispatch({ type: 'progress', run, progress }),
      }).then(
        (result) => {
          dispatch({ type: 'succeeded', run, result });
          onImported();
        },
        (error: unknown) => {
          if (abort.signal.aborted) return;
          const message =
            error instanceof ApiError
              ? error.status === 0
                ? IMPORT_TEXTS.unreachable
                : (error.serverMessage ?? IMPORT_TEXTS.failed)
              : IMPORT_TEXTS.failed;
          dispatch({ type: 'failed', run, message });
        },
      );
    },
    [onImported],
  );
  const dismiss = useCallback(() => dispatch({ type: 'dismiss' }), []);
  return { state, start, dismiss };
}
