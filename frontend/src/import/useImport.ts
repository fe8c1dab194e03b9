import { useCallback, useEffect, useReducer, useRef } from 'react';
import { ApiError } from '../api/client';
import { uploadImport } from './api';
import {
  IMPORT_TEXTS,
  importFileProblem,
  isRetryable,
  importReducer,
  initialImportState,
  type ImportState,
} from './importState';

export interface Importer {
  state: ImportState;
  /** Sends `file` (one import at a time; a file the service would refuse is not sent). */
  start(file: File): void;
  /** Sends the last file again after a retryable failure (the same Idempotency-Key). */
  retry(): void;
  dismiss(): void;
}

/**
 * The Import's state and its one upload; `onImported` runs after trips were created (the
 * list reloads). Leaving the screen cancels an upload under way.
 *
 * Each file is sent with one `Idempotency-Key` (`sendForm`: the key of its action, which is the
 * file's name, type, size and modification time), kept until an import of it succeeds: sending
 * it again after a lost answer (a 502 when trips died midway, a dropped connection), by "Try
 * again" or by choosing the same file again, is the same import, which the service answers or
 * finishes rather than making a second copy.
 */
export function useImport(onImported: () => void): Importer {
  const [state, dispatch] = useReducer(importReducer, initialImportState);
  const runs = useRef(0);
  const lastFile = useRef<File | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(
    (file: File) => {
      const run = ++runs.current;
      lastFile.current = file;
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
          const retryable = error instanceof ApiError && isRetryable(error.status);
          dispatch({ type: 'failed', run, message, retryable });
        },
      );
    },
    [onImported],
  );
  const retry = useCallback(() => {
    if (lastFile.current) start(lastFile.current);
  }, [start]);
  const dismiss = useCallback(() => dispatch({ type: 'dismiss' }), []);
  return { state, start, retry, dismiss };
}
