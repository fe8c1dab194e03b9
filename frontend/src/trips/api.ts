import {
  IDEMPOTENCY_KEY_HEADER,
  isPendingPhotoUrl,
  TRIP_PHOTOS_FIELD,
  type Trip,
  type TripPatch,
  type TripSummary,
  type TripVisibility,
} from '@wayfarer/contracts';
import {
  ApiError,
  apiFetch,
  apiFetchWithHeaders,
  idempotencyKeys,
  messageFrom,
  requestSignature,
} from '../api/client';

export type { Destination, Trip, TripSummary, TripSummaryDestination } from '@wayfarer/contracts';

/** Texts of the trips screens. */
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
  /** The visibility control and the list's lock. */
  visibility: 'Who can see this trip',
  privateTrip: 'Private trip',
} as const;

/** The visibility control's choices, in order: the label and a line under it. */
export const VISIBILITY_CHOICES = [
  { value: 'friends', label: 'Friends', hint: 'Your friends see it on their map and feed.' },
  { value: 'private', label: 'Only me', hint: 'Nobody else sees it, unless you share a link.' },
] as const satisfies readonly { value: TripVisibility; label: string; hint: string }[];

/**
 * `GET /api/mytrips`: the user's trips, newest first, as summaries (each story its preview,
 * each destination's photos its first only); `fetchTrip` has the rest.
 */
export function fetchMyTrips(signal?: AbortSignal): Promise<TripSummary[]> {
  return apiFetch<TripSummary[]>('/api/mytrips', { signal }).then((trips) =>
    Array.isArray(trips) ? trips : [],
  );
}

/** Whether some photo of `trip` is a stand-in whose display variant is still being made. */
export function hasPendingPhotos(trip: Pick<Trip, 'destinations'>): boolean {
  return trip.destinations.some((d) => d.photos.some(isPendingPhotoUrl));
}

/** Delays between polls of a trip whose photos are pending: 1 s growing to 5 s, ~2 minutes. */
export const PENDING_POLL_DELAYS_MS = [1000, 1000, 2000, 2000, 3000, 3000, ...Array(22).fill(5000)];

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * Loads a trip (`GET /api/trips/:id`) and, while some of its photos are pending (their display
 * variant is being made), loads it again (PENDING_POLL_DELAYS_MS), handing each answer to
 * `onTrip`: the photos switch to their variants without a reload. A failure of the first load
 * rejects; a failure of a later one ends the polling quietly (what is shown stays).
 */
export async function watchTrip(
  id: string,
  signal: AbortSignal,
  onTrip: (trip: Trip) => void,
  delays: readonly number[] = PENDING_POLL_DELAYS_MS,
): Promise<void> {
  let trip = await fetchTrip(id, signal);
  for (let round = 0; ; round++) {
    if (signal.aborted) return;
    onTrip(trip);
    if (!hasPendingPhotos(trip) || round >= delays.length) return;
    await pause(delays[round]!, signal);
    if (signal.aborted) return;
    try {
      trip = await fetchTrip(id, signal);
    } catch {
      return;
    }
  }
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

interface FormSend {
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** More request headers (`If-Match`). */
  headers?: Record<string, string>;
}

/**
 * Sends a multipart form with XMLHttpRequest rather than fetch: it reports upload progress,
 * which photos make worth showing. It carries the `Idempotency-Key` of its action
 * (`idempotencyKeys`): the same form sent again after a failure is a retry, answered what the
 * first had done. Answers the body and the `ETag`; failures are `ApiError`s like every other
 * call (status 0: unreachable).
 */
export function sendForm<T>(
  path: string,
  body: FormData,
  options: FormSend = {},
): Promise<{ data: T; etag: string | null }> {
  return new Promise((resolve, reject) => {
    const action = requestSignature('POST', path, body);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', path);
    xhr.withCredentials = true;
    xhr.setRequestHeader('Accept', 'application/json');
    xhr.setRequestHeader(IDEMPOTENCY_KEY_HEADER, idempotencyKeys.keyFor(action));
    for (const [name, value] of Object.entries(options.headers ?? {})) {
      xhr.setRequestHeader(name, value);
    }
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
      if (xhr.status >= 200 && xhr.status < 300) {
        idempotencyKeys.settle(action);
        resolve({ data: data as T, etag: xhr.getResponseHeader('ETag') ?? null });
      } else reject(new ApiError(xhr.status, messageFrom(data), data));
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

/**
 * `POST /api/trips` with the multipart form (see `tripForm.ts`), answering the created trip,
 * with upload progress and the `Idempotency-Key` of its form (`sendForm`).
 */
export async function uploadTrip(
  body: FormData,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<Trip> {
  return (await sendForm<Trip>('/api/trips', body, options)).data;
}

/** A trip as the edit screen holds it: the trip and the `ETag` naming its version. */
export interface VersionedTrip {
  trip: Trip;
  etag: string;
}

const tripPath = (id: string) => `/api/trips/${encodeURIComponent(id)}`;
const photosPath = (tripId: string, destinationId: string) =>
  `${tripPath(tripId)}/destinations/${encodeURIComponent(destinationId)}/photos`;

/** An answer holding the trip: the trip and its new version (the one sent, if none is named). */
const versioned = (trip: Trip, etag: string | null, sent: string): VersionedTrip => ({
  trip,
  etag: etag ?? sent,
});

/** `GET /api/trips/:id` with its `ETag` (the version a change names in `If-Match`). */
export async function fetchVersionedTrip(id: string, signal?: AbortSignal): Promise<VersionedTrip> {
  const { data, headers } = await apiFetchWithHeaders<Trip>(tripPath(id), { signal });
  return versioned(data, headers.get('ETag'), '*');
}

/**
 * `PATCH /api/trips/:id` (contracts' `TripPatch`) made to the version `etag`: 412 when the trip
 * changed since (`TripEditErrors.changed`).
 */
export async function patchTrip(
  id: string,
  patch: TripPatch,
  etag: string,
  signal?: AbortSignal,
): Promise<VersionedTrip> {
  const { data, headers } = await apiFetchWithHeaders<Trip>(tripPath(id), {
    method: 'PATCH',
    json: patch,
    headers: { 'If-Match': etag },
    signal,
  });
  return versioned(data, headers.get('ETag'), etag);
}

/** `POST /api/trips/:id/destinations/:destinationId/photos`: `files` added, with progress. */
export async function uploadPhotos(
  tripId: string,
  destinationId: string,
  files: readonly File[],
  etag: string,
  options: { onProgress?: (progress: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<VersionedTrip> {
  const body = new FormData();
  for (const file of files) body.append(TRIP_PHOTOS_FIELD, file, file.name);
  const answer = await sendForm<Trip>(photosPath(tripId, destinationId), body, {
    ...options,
    headers: { 'If-Match': etag },
  });
  return versioned(answer.data, answer.etag, etag);
}

/** `DELETE /api/trips/:id/destinations/:destinationId/photos/:photoId`. */
export async function removePhoto(
  tripId: string,
  destinationId: string,
  photoId: string,
  etag: string,
): Promise<VersionedTrip> {
  const { data, headers } = await apiFetchWithHeaders<Trip>(
    `${photosPath(tripId, destinationId)}/${encodeURIComponent(photoId)}`,
    { method: 'DELETE', headers: { 'If-Match': etag } },
  );
  return versioned(data, headers.get('ETag'), etag);
}

/** The id of a photo from its URL (`/api/photos/<trip>/<photo>`, maybe `?pending=1`). */
export function photoIdOf(url: string): string {
  const path = url.split('?')[0] ?? '';
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

/** Whether a failed change was refused because the trip changed elsewhere (412). */
export function isConflict(error: unknown): boolean {
  return error instanceof ApiError && error.status === 412;
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
