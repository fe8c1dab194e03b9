import { TripLimits, type TripVisibility } from '@wayfarer/contracts';
import type { PlaceChoice } from '../map/places';
import { TRIP_TEXTS } from './api';
import {
  adjustRange,
  checkPhotos,
  formatBytes,
  tripDateProblem,
  tripUploadProblem,
  type DestinationDraft,
  type PhotoLike,
} from './tripForm';

/**
 * The trip form's state (the add-trip screen `/addTrip` and the edit screen `/trip/:id/edit`),
 * free of React so its rules are unit tested:
 *
 * - a name and a date range (today by default, or the saved trip's);
 * - a destination is composed in the builder (a place picked from the suggestions, its dates
 *   following the trip's until it is given its own, a story, photos) and added to the list;
 *   added without a picked place it is refused with the spec's message, and the place input
 *   takes the focus; the builder starts empty again after each one;
 * - photos are checked as they are chosen against TripLimits (type, size, per destination, per
 *   trip, bytes in all), the refused ones said under the picker;
 * - Save adds a destination picked but not added yet, refuses a half-composed one without a
 *   place, checks the date order and the limits as the trips service does, and only then starts
 *   sending (`sending`: a second Save meanwhile does nothing); a failure keeps everything and
 *   says why;
 * - a listed destination's dates and story can still be changed;
 * - on the edit screen the saved destinations are in the list too (`id`, their `saved` photo
 *   URLs), and each can be given more photos.
 *
 * The photos are files in the app and plain objects in the tests (`P`).
 */

export interface DateRange {
  startDate: string;
  endDate: string;
}

/** One destination of the list: one added here, or (edit screen) a saved one. */
export interface DestinationEntry<P extends PhotoLike = File> extends DestinationDraft<P> {
  /** The saved destination's `_id` (edit screen); undefined for one added here. */
  id?: string;
  /** The saved destination's photo URLs (edit screen); `photos` are the files to add. */
  saved: string[];
  /** Why photos chosen for it (edit screen) were left out. */
  photoProblems: string[];
}

/** The destination being composed. */
export interface Builder<P extends PhotoLike = File> {
  /** Changes after each added destination: the place input starts empty again. */
  generation: number;
  place: PlaceChoice | null;
  /** What is typed in the place input (a half-composed destination is not dropped silently). */
  placeText: string;
  placeError: string | null;
  /** Its own dates once the user picked them; until then the trip's. */
  ownRange: DateRange | null;
  story: string;
  photos: P[];
  photoProblems: string[];
}

export interface UploadProgress {
  loaded: number;
  total: number;
}

export interface TripFormState<P extends PhotoLike = File> {
  name: string;
  range: DateRange;
  /** Who sees the trip: its owner's friends (the default) or only its owner. */
  visibility: TripVisibility;
  destinations: DestinationEntry<P>[];
  builder: Builder<P>;
  /** Under way: the send's number (a new one per Save) and its upload progress, if known. */
  sending: null | { run: number; progress: UploadProgress | null };
  /** Sends started so far. */
  runs: number;
  saveError: string | null;
  /** Said to screen readers (a destination added or removed). */
  announcement: string;
  /** Where the focus goes next; `seq` changes with every request, even to the same place. */
  focus: null | { target: 'place' | 'list'; seq: number };
  /** Destinations added here so far (their keys). */
  added: number;
}

export type TripFormAction<P extends PhotoLike = File> =
  | { type: 'name'; value: string }
  | { type: 'trip-date'; field: keyof DateRange; value: string }
  | { type: 'visibility'; value: TripVisibility }
  | { type: 'place-selected'; choice: PlaceChoice }
  | { type: 'place-invalid' }
  | { type: 'place-typed'; text: string }
  | { type: 'destination-date'; field: keyof DateRange; value: string }
  | { type: 'story'; value: string }
  | { type: 'photos-chosen'; files: readonly P[] }
  | { type: 'photo-dropped'; file: P }
  | { type: 'add-destination' }
  | { type: 'remove-destination'; key: string }
  /** A listed destination's own dates or story changed (its place stays). */
  | { type: 'destination-field'; key: string; field: keyof DateRange | 'story'; value: string }
  /** Edit screen: more photos for a destination of the list. */
  | { type: 'destination-photos-chosen'; key: string; files: readonly P[] }
  | { type: 'destination-photo-dropped'; key: string; file: P }
  /** Save: `today` is the default of empty dates. */
  | { type: 'submit'; today: string }
  | { type: 'progress'; progress: UploadProgress | null }
  | { type: 'send-failed'; message: string };

export const TRIP_FORM_TEXTS = {
  tooManyDestinations: `A trip holds at most ${TripLimits.destinationsMax} destinations.`,
  added: (name: string) => `${name} added.`,
  removed: (name: string) => `${name} removed.`,
  starting: 'Starting the upload…',
  processing: 'Processing photos…',
  sent: (loaded: number, total: number) => `${formatBytes(loaded)} of ${formatBytes(total)} sent`,
  noDestinations: 'No destinations yet. Pick a place above and click “Add destination”.',
} as const;

const emptyBuilder = <P extends PhotoLike>(generation: number): Builder<P> => ({
  generation,
  place: null,
  placeText: '',
  placeError: null,
  ownRange: null,
  story: '',
  photos: [],
  photoProblems: [],
});

/**
 * A new form: no name, `range` (today to today on the add screen), `destinations` and
 * `visibility` (friends, what the spec does, unless the saved trip says otherwise).
 */
export function initialTripForm<P extends PhotoLike = File>(
  range: DateRange,
  name = '',
  destinations: DestinationEntry<P>[] = [],
  visibility: TripVisibility = 'friends',
): TripFormState<P> {
  return {
    name,
    range,
    visibility,
    destinations,
    builder: emptyBuilder(0),
    sending: null,
    runs: 0,
    saveError: null,
    announcement: '',
    focus: null,
    added: 0,
  };
}

/** The builder's dates: its own once picked, else the trip's. */
export const builderRange = (state: TripFormState<PhotoLike>): DateRange =>
  state.builder.ownRange ?? state.range;

/** Every photo file chosen (list and builder), in order: the previews' and pins' files. */
export function chosenFiles<P extends PhotoLike>(state: TripFormState<P>): P[] {
  return [...state.destinations.flatMap((d) => d.photos), ...state.builder.photos];
}

/** The trip's photos in all (saved and chosen) and the chosen ones' bytes. */
export function photoTotals(state: TripFormState<PhotoLike>): { count: number; bytes: number } {
  const files = chosenFiles(state);
  const saved = state.destinations.reduce((sum, d) => sum + d.saved.length, 0);
  return { count: saved + files.length, bytes: files.reduce((sum, f) => sum + f.size, 0) };
}

/** Whether the builder holds something that is not a destination yet. */
export function builderHasWork(builder: Builder<PhotoLike>): boolean {
  return (
    builder.placeText.trim() !== '' || builder.story.trim() !== '' || builder.photos.length > 0
  );
}

const focusOn = (state: TripFormState<PhotoLike>, target: 'place' | 'list') => ({
  target,
  seq: (state.focus?.seq ?? 0) + 1,
});

/** The builder's destination added to the list, or the state saying why it can't be. */
function addDestination<P extends PhotoLike>(
  state: TripFormState<P>,
): { state: TripFormState<P>; added: boolean } {
  const { builder } = state;
  if (!builder.place) {
    return {
      added: false,
      state: {
        ...state,
        builder: { ...builder, placeError: TRIP_TEXTS.invalidDestination },
        focus: focusOn(state, 'place'),
      },
    };
  }
  if (state.destinations.length >= TripLimits.destinationsMax) {
    return {
      added: false,
      state: { ...state, builder: { ...builder, placeError: TRIP_FORM_TEXTS.tooManyDestinations } },
    };
  }
  const range = builderRange(state);
  const entry: DestinationEntry<P> = {
    key: `new-${state.added + 1}`,
    name: builder.place.label.slice(0, TripLimits.destinationNameMax),
    latitude: builder.place.latitude,
    longitude: builder.place.longitude,
    startDate: range.startDate,
    endDate: range.endDate,
    story: builder.story,
    photos: builder.photos,
    saved: [],
    photoProblems: [],
  };
  return {
    added: true,
    state: {
      ...state,
      destinations: [...state.destinations, entry],
      added: state.added + 1,
      builder: emptyBuilder(builder.generation + 1),
      announcement: TRIP_FORM_TEXTS.added(entry.name),
      focus: focusOn(state, 'place'),
    },
  };
}

const updateBuilder = <P extends PhotoLike>(
  state: TripFormState<P>,
  change: Partial<Builder<P>>,
): TripFormState<P> => ({ ...state, builder: { ...state.builder, ...change } });

const updateDestination = <P extends PhotoLike>(
  state: TripFormState<P>,
  key: string,
  change: (d: DestinationEntry<P>) => DestinationEntry<P>,
): TripFormState<P> => ({
  ...state,
  destinations: state.destinations.map((d) => (d.key === key ? change(d) : d)),
});

export function tripFormReducer<P extends PhotoLike>(
  state: TripFormState<P>,
  action: TripFormAction<P>,
): TripFormState<P> {
  // nothing changes while the trip is being sent (the form is disabled) but the send's own news
  if (state.sending && action.type !== 'progress' && action.type !== 'send-failed') return state;
  switch (action.type) {
    case 'name':
      return { ...state, name: action.value };
    case 'trip-date':
      return { ...state, range: adjustRange(state.range, action.field, action.value) };
    case 'visibility':
      return { ...state, visibility: action.value };
    case 'place-selected':
      return updateBuilder(state, {
        place: action.choice,
        placeText: action.choice.label,
        placeError: null,
      });
    case 'place-invalid':
      return updateBuilder(state, { place: null, placeError: TRIP_TEXTS.invalidDestination });
    case 'place-typed':
      return updateBuilder(state, { place: null, placeText: action.text, placeError: null });
    case 'destination-date':
      return updateBuilder(state, {
        ownRange: adjustRange(builderRange(state), action.field, action.value),
      });
    case 'story':
      return updateBuilder(state, { story: action.value });
    case 'photos-chosen': {
      if (action.files.length === 0) return state;
      const totals = photoTotals(state);
      const { accepted, problems } = checkPhotos(
        action.files,
        state.builder.photos.length,
        totals.count,
        totals.bytes,
      );
      return updateBuilder(state, {
        photos: [...state.builder.photos, ...accepted],
        photoProblems: problems,
      });
    }
    case 'photo-dropped':
      return updateBuilder(state, {
        photos: state.builder.photos.filter((p) => p !== action.file),
      });
    case 'add-destination':
      return addDestination(state).state;
    case 'remove-destination': {
      const removed = state.destinations.find((d) => d.key === action.key);
      if (!removed) return state;
      return {
        ...state,
        destinations: state.destinations.filter((d) => d.key !== action.key),
        announcement: TRIP_FORM_TEXTS.removed(removed.name),
        focus: focusOn(state, 'list'),
      };
    }
    case 'destination-field':
      return updateDestination(state, action.key, (d) =>
        action.field === 'story'
          ? { ...d, story: action.value }
          : {
              ...d,
              ...adjustRange(
                { startDate: d.startDate, endDate: d.endDate },
                action.field,
                action.value,
              ),
            },
      );
    case 'destination-photos-chosen': {
      const target = state.destinations.find((d) => d.key === action.key);
      if (!target || action.files.length === 0) return state;
      const totals = photoTotals(state);
      const { accepted, problems } = checkPhotos(
        action.files,
        target.saved.length + target.photos.length,
        totals.count,
        totals.bytes,
      );
      return updateDestination(state, action.key, (d) => ({
        ...d,
        photos: [...d.photos, ...accepted],
        photoProblems: problems,
      }));
    }
    case 'destination-photo-dropped':
      return updateDestination(state, action.key, (d) => ({
        ...d,
        photos: d.photos.filter((p) => p !== action.file),
      }));
    case 'submit':
      return submit(state, action.today);
    case 'progress':
      return state.sending
        ? { ...state, sending: { ...state.sending, progress: action.progress } }
        : state;
    case 'send-failed':
      return { ...state, sending: null, saveError: action.message };
  }
}

/**
 * Save: a destination picked but not added yet goes with the trip; a half-composed one without
 * a place is not silently dropped. Then the dates as the trips service checks them and the
 * limits it and the gateway's body cap come from, before a single byte is sent (a refused upload
 * of 100 MB would be a long wait for a 400 or a 413).
 */
function submit<P extends PhotoLike>(state: TripFormState<P>, today: string): TripFormState<P> {
  let next: TripFormState<P> = { ...state, saveError: null };
  if (next.builder.place) {
    const result = addDestination(next);
    if (!result.added) return result.state;
    next = result.state;
  } else if (builderHasWork(next.builder)) {
    return {
      ...next,
      builder: { ...next.builder, placeError: TRIP_TEXTS.invalidDestination },
      focus: focusOn(next, 'place'),
    };
  }
  const problem =
    tripDateProblem({ ...next.range, destinations: next.destinations }, today) ??
    tripUploadProblem({ destinations: next.destinations });
  if (problem) return { ...next, saveError: problem };
  return { ...next, runs: next.runs + 1, sending: { run: next.runs + 1, progress: null } };
}

/** The progress bar's percentage, or null while the total is not known. */
export function progressPercent(progress: UploadProgress | null): number | null {
  if (!progress || progress.total <= 0) return null;
  return Math.min(100, Math.round((progress.loaded / progress.total) * 100));
}

/** The line under the progress bar. */
export function uploadNote(progress: UploadProgress | null): string {
  const percent = progressPercent(progress);
  if (progress === null || percent === null) return TRIP_FORM_TEXTS.starting;
  return percent >= 100
    ? TRIP_FORM_TEXTS.processing
    : TRIP_FORM_TEXTS.sent(progress.loaded, progress.total);
}
