import {
  TripEditMessages,
  visibilityOf,
  type TripPatch,
  type TripPatchDestination,
} from '@wayfarer/contracts';
import type { Trip } from './api';
import type { PhotoLike } from './tripForm';
import { failedLoad } from './tripViewState';
import {
  initialTripForm,
  tripFormReducer,
  type DestinationEntry,
  type TripFormAction,
  type TripFormState,
  type UploadProgress,
} from './tripFormState';

/**
 * The edit screen's state (`/trip/:id/edit`), free of React so its rules are unit
 * tested. The trip form (`tripFormState`) prefilled from `GET /api/trips/:id`, plus:
 *
 * - the trip as the server last answered it and its `ETag`: Save sends only what differs from
 *   it (`tripPatch`, `PATCH` with `If-Match`), then each destination's new photos through the
 *   photo route; every answer moves both on (`afterPatch`, `withSavedPhotos`), so a Save that failed half way is not
 *   sent twice: Save again sends only what is left;
 * - a saved photo is removed at once after a confirmation (its own `DELETE`), the form kept;
 * - a 412 (the trip changed elsewhere) is a `conflict`: the screen says so and offers to load
 *   the trip again (what was changed here is then dropped).
 */

export type EditLoad =
  | { status: 'loading' }
  | { status: 'ready' }
  | { status: 'not-found' }
  | { status: 'failed'; message: string };

export interface PhotoRemoval {
  key: string;
  url: string;
  /** Its place in the destination's photos (0-based), for "photo 2 of Oslo". */
  index: number;
  busy: boolean;
  error: string | null;
}

export interface TripEditState<P extends PhotoLike = File> {
  load: EditLoad;
  /** The trip as last answered: what a Save is computed against. */
  trip: Trip | null;
  /** Its version (`ETag`), sent in `If-Match`. */
  etag: string | null;
  form: TripFormState<P>;
  /** A change was refused with 412: the trip changed elsewhere. */
  conflict: boolean;
  /** The saved photo whose removal is being confirmed (the dialog is open). */
  removal: PhotoRemoval | null;
}

export type TripEditAction<P extends PhotoLike = File> =
  | TripFormAction<P>
  | { type: 'load-start' }
  | { type: 'loaded'; trip: Trip; etag: string }
  | { type: 'load-failed'; notFound: boolean; message: string }
  /** Save's patch was answered. */
  | { type: 'patched'; trip: Trip; etag: string }
  /** Save's photo add was answered: `sent`, the files it added, by destination key. */
  | { type: 'photos-added'; trip: Trip; etag: string; sent: { key: string; files: readonly P[] } }
  | { type: 'conflict' }
  | { type: 'photo-remove-ask'; key: string; url: string; index: number }
  | { type: 'photo-remove-cancel' }
  | { type: 'photo-remove-start' }
  | { type: 'photo-removed'; trip: Trip; etag: string }
  | { type: 'photo-remove-failed'; message: string; conflict: boolean };

export const TRIP_EDIT_TEXTS = {
  title: 'Edit Trip',
  subtitle: 'Change the name, dates and destinations, add photos or remove them.',
  save: 'Save changes',
  loadFailed: 'The trip could not be loaded.',
  conflict: TripEditMessages.changedElsewhere,
  reload: 'Reload the trip',
  reloadNote: 'Reloading drops the changes made here.',
  removeTitle: 'Remove this photo?',
  removeDetail: (name: string) =>
    `It is removed from ${name} now, even if you leave without saving. This can't be undone.`,
  removeFailed: 'The photo could not be removed. Please try again.',
  removed: 'Photo removed.',
  savedRemoval:
    'A saved destination taken out of the list is deleted, with its photos and journal, when you save.',
} as const;

/** `YYYY-MM-DD` of a date the API answered (a full ISO time keeps its day). */
const day = (date: string) => date.slice(0, 10);

/** A saved destination as an entry of the form's list (its key is its id). */
function entryOf<P extends PhotoLike>(d: Trip['destinations'][number]): DestinationEntry<P> {
  return {
    key: d._id,
    id: d._id,
    name: d.name,
    latitude: d.latitude,
    longitude: d.longitude,
    startDate: day(d.startDate),
    endDate: day(d.endDate),
    story: d.story,
    photos: [],
    saved: d.photos,
    photoProblems: [],
  };
}

/** The form prefilled from a saved trip. */
export function formFromTrip<P extends PhotoLike = File>(trip: Trip): TripFormState<P> {
  return initialTripForm<P>(
    { startDate: day(trip.startDate), endDate: day(trip.endDate) },
    trip.name,
    trip.destinations.map((d) => entryOf<P>(d)),
    visibilityOf(trip),
  );
}

export function initialTripEdit<P extends PhotoLike = File>(): TripEditState<P> {
  return {
    load: { status: 'loading' },
    trip: null,
    etag: null,
    form: initialTripForm<P>({ startDate: '', endDate: '' }),
    conflict: false,
    removal: null,
  };
}

const DESTINATION_FIELDS = [
  'name',
  'startDate',
  'endDate',
  'latitude',
  'longitude',
  'story',
] as const;

/**
 * What Save sends in `PATCH /api/trips/:id`: the fields that differ from `trip` (the visibility
 * among them: a trip answered without one is `friends`), and the whole
 * destination list (kept ones by `_id` with what changed, new ones whole) when anything in it
 * differs (an order, a removal, an addition, a changed field). Null when nothing does.
 */
export function tripPatch(trip: Trip, form: TripFormState<PhotoLike>): TripPatch | null {
  const patch: TripPatch = {};
  const name = form.name.trim();
  if (name !== trip.name) patch.name = name;
  if (form.range.startDate !== day(trip.startDate)) patch.startDate = form.range.startDate;
  if (form.range.endDate !== day(trip.endDate)) patch.endDate = form.range.endDate;
  if (form.visibility !== visibilityOf(trip)) patch.visibility = form.visibility;

  const saved = new Map(trip.destinations.map((d) => [d._id, entryOf<PhotoLike>(d)]));
  let listChanged = form.destinations.length !== trip.destinations.length;
  const destinations = form.destinations.map((entry, i): TripPatchDestination => {
    const before = entry.id === undefined ? undefined : saved.get(entry.id);
    if (!before) {
      listChanged = true;
      const { name: placeName, latitude, longitude, startDate, endDate, story } = entry;
      return { name: placeName, latitude, longitude, startDate, endDate, story };
    }
    if (trip.destinations[i]?._id !== entry.id) listChanged = true;
    const kept: TripPatchDestination = { _id: before.id };
    for (const field of DESTINATION_FIELDS) {
      if (entry[field] !== before[field]) {
        (kept as Record<string, unknown>)[field] = entry[field];
        listChanged = true;
      }
    }
    return kept;
  });
  if (listChanged) patch.destinations = destinations;
  return Object.keys(patch).length > 0 ? patch : null;
}

/**
 * The form after its patch answered `trip`: each listed destination takes the answer's fields
 * and saved photos (one added here takes its new id: the patch sent the list in order, so it is
 * the answer's destination at the same place); files still to send, and the builder, stay.
 */
export function afterPatch<P extends PhotoLike>(
  form: TripFormState<P>,
  trip: Trip,
): TripFormState<P> {
  const destinations = form.destinations.flatMap((entry, i) => {
    const answered =
      entry.id === undefined
        ? trip.destinations[i]
        : trip.destinations.find((d) => d._id === entry.id);
    if (!answered) return [];
    const { photos, photoProblems, key } = entry;
    return [{ ...entryOf<P>(answered), key, photos, photoProblems }];
  });
  return {
    ...form,
    name: trip.name,
    range: { startDate: day(trip.startDate), endDate: day(trip.endDate) },
    visibility: visibilityOf(trip),
    destinations,
  };
}

/**
 * The form after a photo was added or removed (the answer: `trip`): the saved destinations'
 * photos as answered, `sent` (the files the add sent, by destination key) leaving the form;
 * everything else as the user has it (changes not saved yet stay).
 */
export function withSavedPhotos<P extends PhotoLike>(
  form: TripFormState<P>,
  trip: Trip,
  sent?: { key: string; files: readonly P[] },
): TripFormState<P> {
  const photos = new Map(trip.destinations.map((d) => [d._id, d.photos]));
  return {
    ...form,
    destinations: form.destinations.map((entry) => {
      const saved = entry.id === undefined ? undefined : photos.get(entry.id);
      if (!saved) return entry;
      const gone = entry.key === sent?.key ? new Set(sent.files) : null;
      return {
        ...entry,
        saved,
        photos: gone ? entry.photos.filter((p) => !gone.has(p)) : entry.photos,
      };
    }),
  };
}

/** The photo uploads a Save still has to make: each saved destination with files to add. */
export function pendingUploads<P extends PhotoLike>(
  form: TripFormState<P>,
): { key: string; destinationId: string; files: P[] }[] {
  return form.destinations.flatMap((d) =>
    d.id !== undefined && d.photos.length > 0
      ? [{ key: d.key, destinationId: d.id, files: d.photos }]
      : [],
  );
}

/**
 * One progress over several uploads: the bytes of the files done and of the one under way
 * (its own progress scaled to its files' bytes: the multipart framing is not counted).
 */
export function combinedProgress(
  totalBytes: number,
  doneBytes: number,
  current: { bytes: number; progress: UploadProgress } | null,
): UploadProgress | null {
  if (totalBytes <= 0) return null;
  const share =
    current && current.progress.total > 0
      ? (current.progress.loaded / current.progress.total) * current.bytes
      : 0;
  return { loaded: Math.min(totalBytes, Math.round(doneBytes + share)), total: totalBytes };
}

const FORM_ACTIONS_WHILE_REMOVING = new Set<TripEditAction['type']>(['progress', 'send-failed']);

export function tripEditReducer<P extends PhotoLike>(
  state: TripEditState<P>,
  action: TripEditAction<P>,
): TripEditState<P> {
  switch (action.type) {
    case 'load-start':
      return { ...state, load: { status: 'loading' } };
    case 'loaded':
      return {
        load: { status: 'ready' },
        trip: action.trip,
        etag: action.etag,
        form: formFromTrip<P>(action.trip),
        conflict: false,
        removal: null,
      };
    case 'load-failed':
      return { ...state, load: failedLoad(action) };
    case 'patched':
      return {
        ...state,
        trip: action.trip,
        etag: action.etag,
        form: afterPatch(state.form, action.trip),
      };
    case 'photos-added':
      return {
        ...state,
        trip: action.trip,
        etag: action.etag,
        form: withSavedPhotos(state.form, action.trip, action.sent),
      };
    case 'photo-removed': {
      const form = withSavedPhotos(state.form, action.trip);
      return {
        ...state,
        trip: action.trip,
        etag: action.etag,
        removal: null,
        form: {
          ...form,
          announcement: TRIP_EDIT_TEXTS.removed,
          focus: { target: 'list', seq: (form.focus?.seq ?? 0) + 1 },
        },
      };
    }
    case 'conflict':
      return { ...state, conflict: true };
    case 'photo-remove-ask':
      if (state.form.sending || state.removal?.busy) return state;
      return {
        ...state,
        removal: {
          key: action.key,
          url: action.url,
          index: action.index,
          busy: false,
          error: null,
        },
      };
    case 'photo-remove-cancel':
      return state.removal?.busy ? state : { ...state, removal: null };
    case 'photo-remove-start':
      return state.removal
        ? { ...state, removal: { ...state.removal, busy: true, error: null } }
        : state;
    case 'photo-remove-failed':
      return {
        ...state,
        conflict: state.conflict || action.conflict,
        removal: state.removal
          ? { ...state.removal, busy: false, error: action.message }
          : state.removal,
      };
    default: {
      // a form action; none but the send's own while a photo is being removed
      if (state.removal?.busy && !FORM_ACTIONS_WHILE_REMOVING.has(action.type)) return state;
      const form = tripFormReducer(state.form, action);
      return form === state.form ? state : { ...state, form };
    }
  }
}
