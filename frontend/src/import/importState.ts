import { ImportLimits, ImportMessages, type ImportResult } from '@wayfarer/contracts';
import { progressPercent, type UploadProgress } from '../trips/tripFormState';

/** Texts of the trips list's Import. */
export const IMPORT_TEXTS = {
  button: 'Import',
  buttonHint: 'Import trips from a GPX, KML or GeoJSON file, or a Polarsteps or Wayfarer export',
  progressLabel: 'Import progress',
  uploading: (name: string) => `Importing “${name}”…`,
  processing: (name: string) => `Reading “${name}” and creating your trips…`,
  failed: 'The file could not be imported. Please try again.',
  unreachable: 'Could not reach the server. Please try again.',
  dismiss: 'Dismiss',
  /** Sends the same file again: the same import (its Idempotency-Key), never a second copy. */
  retry: 'Try again',
} as const;

export type ImportProgress = UploadProgress;

export type ImportState =
  | { status: 'idle' }
  | { status: 'uploading'; run: number; fileName: string; progress: ImportProgress | null }
  | { status: 'done'; result: ImportResult }
  | {
      status: 'failed';
      message: string;
      /**
       * The answer was lost or the service failed (no answer, a 5xx): the same file may be sent
       * again as it is, with the same Idempotency-Key (a retry is answered the first import's
       * result or finishes it). A refusal of the file (a 4xx) is not retried.
       */
      retryable?: boolean;
    };

export type ImportAction =
  | { type: 'start'; run: number; fileName: string }
  | { type: 'progress'; run: number; progress: ImportProgress }
  | { type: 'succeeded'; run: number; result: ImportResult }
  | { type: 'failed'; run: number; message: string; retryable?: boolean }
  | { type: 'dismiss' };

export const initialImportState: ImportState = { status: 'idle' };

/**
 * The Import's state: one upload at a time (`run` numbers it; what an older run reports is
 * ignored), its progress, then the result or the service's message.
 */
export function importReducer(state: ImportState, action: ImportAction): ImportState {
  switch (action.type) {
    case 'start':
      return { status: 'uploading', run: action.run, fileName: action.fileName, progress: null };
    case 'progress':
      return state.status === 'uploading' && state.run === action.run
        ? { ...state, progress: action.progress }
        : state;
    case 'succeeded':
      return state.status === 'uploading' && state.run === action.run
        ? { status: 'done', result: action.result }
        : state;
    case 'failed':
      return state.status === 'uploading' && state.run === action.run
        ? action.retryable
          ? { status: 'failed', message: action.message, retryable: true }
          : { status: 'failed', message: action.message }
        : state;
    case 'dismiss':
      return state.status === 'uploading' ? state : initialImportState;
  }
}

/**
 * Why `file` need not be sent at all (the service would refuse it the same way), or null. The
 * service goes by the bytes; here a `.gpx` or `.kml` name is taken at its word for the size.
 */
export function importFileProblem(file: { name: string; size: number }): string | null {
  if (file.size === 0) return ImportMessages.empty;
  if (file.size > ImportLimits.fileMaxBytes) return ImportMessages.fileTooLarge;
  if (/\.(gpx|kml)$/i.test(file.name) && file.size > ImportLimits.xmlMaxBytes) {
    return ImportMessages.xmlTooLarge;
  }
  return null;
}

/** Whether a failed upload's answer (its HTTP status; 0: none) is worth the same file again. */
export function isRetryable(status: number): boolean {
  return status === 0 || status >= 500;
}

/** The line under the progress bar: the share sent, then the service at work. */
export function importNote(state: Extract<ImportState, { status: 'uploading' }>): string {
  const percent = progressPercent(state.progress);
  if (percent === null || percent < 100) return IMPORT_TEXTS.uploading(state.fileName);
  return IMPORT_TEXTS.processing(state.fileName);
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What was left out, in words (`''` when nothing was). */
export function skippedSummary(skipped: ImportResult['skipped']): string {
  const parts = [
    skipped.destinations > 0 ? plural(skipped.destinations, 'place') : '',
    skipped.photos > 0 ? plural(skipped.photos, 'photo') : '',
    skipped.trips > 0 ? plural(skipped.trips, 'trip') : '',
  ].filter(Boolean);
  return parts.length > 0 ? `Skipped: ${parts.join(', ')} (over the limits or unreadable).` : '';
}
