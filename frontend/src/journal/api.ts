import { ApiError, apiFetch } from '../api/client';
import type { JournalApi } from './journalState';

/**
 * Journal reads ownership from trips' `trip.created` event, so right after a trip is created
 * the journal service may answer 404 for a few hundred milliseconds (services/journal README,
 * "Known race"). One retry after this pause covers it.
 */
export const JOURNAL_NOT_FOUND_RETRY_MS = 600;

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

/** Runs `call`; if it fails with a 404, waits and runs it once more. */
export async function retryOnceOnNotFound<T>(
  call: () => Promise<T>,
  options: { delayMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
    await wait(options.delayMs ?? JOURNAL_NOT_FOUND_RETRY_MS, options.signal);
    return call();
  }
}

interface JournalAnswer {
  content?: unknown;
  message?: string;
}

/** `GET /api/journal/:destinationId` and `POST /api/journal`. */
export const journalApi: JournalApi = {
  async load(destinationId, signal) {
    const answer = await retryOnceOnNotFound(
      () =>
        apiFetch<JournalAnswer | null>(`/api/journal/${encodeURIComponent(destinationId)}`, {
          signal,
        }),
      { signal },
    );
    return typeof answer?.content === 'string' ? answer.content : '';
  },
  async save(body) {
    await retryOnceOnNotFound(() =>
      apiFetch<{ message?: string }>('/api/journal', {
        method: 'POST',
        json: body,
        idempotent: true,
      }),
    );
  },
};
