import type { Trip } from '@wayfarer/contracts';
import { ApiError, apiFetch, messageFrom } from '../api/client';

export type { Destination, Trip } from '@wayfarer/contracts';

/** Texts of the trips screens (spec sections 4, 5 and 8). */
export const TRIP_TEXTS = {
  fetchFailed: 'Error: Failed to fetch trips',
  empty: 'No trips available. Click "Add Trip" to create one!',
  confirmDelete: 'Delete this trip?',
  uploading: 'Uploading...',
  invalidDestination: 'Please select a valid destination.',
  storyPlaceholder: 'Share a story...',
  notFound: 'Trip not found.',
  deleteFailed: 'The trip could not be deleted. Please try again.',
  saveFailed: 'The trip could not be saved. Please try again.',
  untitled: 'Untitled trip',
} as const;

/** `GET /api/mytrips`: the user's trips, newest first. */
export function fetchMyTrips(signal?: AbortSignal): Promise<Trip[]> {
  return apiFetch<Trip[]>('/api/mytrips', { signal }).then((trips) =>
    Array.isArray(trips) ? trips : [],
  );
}

/** `GET /api/trips/:id`: one of the user's trips (404 for anyone else's or an unknown id). */
export function fetchTrip(id: string, signal?: AbortSignal): Promise<Trip> {
  return apiFetch<Trip>(`/api/trips/${encodeURIComponent(id)}`, { signal });
}

/** `DELETE /api/trips/:id` → `{deletedTrip, message}`. */
export function deleteTrip(id: string): Promise<{ deletedTrip: Trip; message?: string }> {
  return apiFetch(`/api/trips/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * `POST /api/trips` with the multipart form (see `tripForm.ts`), answering the created trip.
 * XMLHttpRequest rather than fetch: it reports upload progress, which photos make worth
 * showing. Failures are `ApiError`s like every other call (status 0: unreachable).
 */
export function uploadTrip(
  body: FormData,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<Trip> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/trips');
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.responseType = 'text';
    if (options.onProgress) {
      const report = options.onProgress;
      xhr.upload.addEventListener('progress', (event) => {
        if (event.lengthComputable) report({ loaded: event.loaded, total: event.total });
      });
    }
    const onAbort = () => xhr.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => options.signal?.removeEventListener('abort', onAbort);

    xhr.addEventListener('load', () => {
      done();
      let data: unknown;
      try {
        data = xhr.responseText ? (JSON.parse(xhr.responseText) as unknown) : null;
      } catch {
        data = xhr.responseText;
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(data as Trip);
      else reject(new ApiError(xhr.status, messageFrom(data), data));
    });
    xhr.addEventListener('error', () => {
      done();
      reject(new ApiError(0, undefined));
    });
    xhr.addEventListener('abort', () => {
      done();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    });
    xhr.send(body);
  });
}

/** The message to show for a failed call: the server's, else `fallback`. */
export function failureMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.serverMessage) return error.serverMessage;
    if (error.status === 0)
      return 'Could not reach the server. Check your connection and try again.';
  }
  return fallback;
}
