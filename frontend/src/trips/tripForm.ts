import {
  destinationFieldName,
  endsBeforeStart,
  IMAGE_ACCEPT,
  ImageTypes,
  isAcceptedImageFile,
  photosFieldName,
  TripDateMessages,
  TripLimits,
  type DESTINATION_FIELDS,
  visibilityOf,
  type TripVisibility,
} from '@wayfarer/contracts';

/**
 * The add-trip form's pure parts: today's date, the destination draft, photo checks and the
 * multipart body of `POST /api/trips` exactly as the spec's /api row names its fields.
 */

/** The parts of a `File` the checks look at (tests need no DOM). */
export interface PhotoLike {
  name: string;
  type: string;
  size: number;
}

export interface DestinationDraft<P extends PhotoLike = File> {
  /** Client-side key (list rendering, removal); never sent. */
  key: string;
  name: string;
  latitude: number;
  longitude: number;
  startDate: string;
  endDate: string;
  story: string;
  photos: P[];
}

export interface TripDraft<P extends PhotoLike = File> {
  name: string;
  startDate: string;
  endDate: string;
  destinations: DestinationDraft<P>[];
  /**
   * Who sees the trip: the field `visibility`, sent for `private` only (absent is
   * `friends`, contracts' `TripInput` default: a friends trip's form is the spec's as before).
   */
  visibility?: TripVisibility;
}

/** A calendar day as `YYYY-MM-DD` in the user's time zone (the date inputs' format). */
export function localDateString(date: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/**
 * The start and end after one of them changed: an end before the start moves with it (the
 * spec checks nothing here; this only keeps the pair sensible while picking).
 */
export function adjustRange(
  range: { startDate: string; endDate: string },
  changed: 'startDate' | 'endDate',
  value: string,
): { startDate: string; endDate: string } {
  const next = { ...range, [changed]: value };
  if (next.startDate && next.endDate && next.endDate < next.startDate) {
    if (changed === 'startDate') next.endDate = next.startDate;
    else next.startDate = next.endDate;
  }
  return next;
}

/**
 * The dates checked just before the trip is sent, as the trips service checks them (contracts'
 * `endsBeforeStart`, the same message): the sentence to show, or null. Empty dates are the
 * service's defaults: the trip's are today, a destination's the trip's.
 */
export function tripDateProblem(
  draft: Pick<TripDraft<PhotoLike>, 'startDate' | 'endDate' | 'destinations'>,
  today: string,
): string | null {
  const trip = { startDate: draft.startDate || today, endDate: draft.endDate || today };
  if (endsBeforeStart(trip)) return TripDateMessages.endBeforeStart;
  for (const d of draft.destinations) {
    const range = { startDate: d.startDate || trip.startDate, endDate: d.endDate || trip.endDate };
    if (endsBeforeStart(range)) return `${d.name}: ${TripDateMessages.endBeforeStart}`;
  }
  return null;
}

/**
 * The multipart fields in order: `name`, `startDate`, `endDate`, `visibility` (a private trip's),
 * then per destination i
 * `destinations[i][name|startDate|endDate|latitude|longitude|story]` followed by its files,
 * each appended under `photos[i]` (the field name repeats).
 */
export function tripFormEntries<P extends PhotoLike>(
  draft: TripDraft<P>,
): [name: string, value: string | P][] {
  const entries: [string, string | P][] = [
    ['name', draft.name.trim()],
    ['startDate', draft.startDate],
    ['endDate', draft.endDate],
  ];
  if (draft.visibility && draft.visibility !== visibilityOf({})) {
    entries.push(['visibility', draft.visibility]);
  }
  draft.destinations.forEach((d, i) => {
    const field = (key: (typeof DESTINATION_FIELDS)[number]) => destinationFieldName(i, key);
    entries.push(
      [field('name'), d.name],
      [field('startDate'), d.startDate],
      [field('endDate'), d.endDate],
      [field('latitude'), String(d.latitude)],
      [field('longitude'), String(d.longitude)],
      [field('story'), d.story],
    );
    for (const photo of d.photos) entries.push([photosFieldName(i), photo]);
  });
  return entries;
}

/** The `POST /api/trips` body. */
export function buildTripFormData(draft: TripDraft<File>): FormData {
  const form = new FormData();
  for (const [name, value] of tripFormEntries(draft)) {
    if (typeof value === 'string') form.append(name, value);
    else form.append(name, value, value.name);
  }
  return form;
}

/** What the trips service decodes (it types photos by their bytes; anything else is a 400). */
export const PHOTO_TYPES = ImageTypes;
export const PHOTO_ACCEPT = IMAGE_ACCEPT;

/** A JPEG, PNG, WebP or GIF, by MIME type or (when the browser reports none) by extension. */
export function isSupportedPhoto(file: Pick<PhotoLike, 'name' | 'type'>): boolean {
  return isAcceptedImageFile(file);
}

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round(bytes / MB);

/** The limits as people read them (TripLimits, the trips service's own). */
export const PHOTO_LIMIT_TEXTS = {
  perPhoto: `each photo must be at most ${mb(TripLimits.photoMaxBytes)} MB`,
  perDestination: `at most ${TripLimits.photosPerDestinationMax} photos per destination`,
  perTrip: `at most ${TripLimits.photosPerTripMax} photos per trip`,
  total: `a trip's photos may total at most ${mb(TripLimits.photosTotalMaxBytes)} MB`,
} as const;

export interface PhotoCheck<P extends PhotoLike> {
  accepted: P[];
  /** One message per refused file (or group), to show under the input. */
  problems: string[];
}

const plural = (n: number) => `${n} photo${n === 1 ? ' was' : 's were'}`;

/**
 * Which of the newly chosen files may join a destination that already has `current` photos,
 * in a trip that already has `tripTotal` photos of `tripBytes` bytes (other destinations'
 * photos included): images of the four decodable types, at most 15 MB each, 10 per
 * destination, 40 per trip and 100 MB in all (TripLimits).
 */
export function checkPhotos<P extends PhotoLike>(
  chosen: readonly P[],
  current: number,
  tripTotal: number,
  tripBytes = 0,
): PhotoCheck<P> {
  const accepted: P[] = [];
  const problems: string[] = [];
  let overCount = 0;
  let overBytes = 0;
  let bytes = tripBytes;
  for (const file of chosen) {
    if (!isSupportedPhoto(file)) {
      problems.push(`${file.name} is not a JPEG, PNG, WebP or GIF image.`);
    } else if (file.size === 0) {
      problems.push(`${file.name} is empty.`);
    } else if (file.size > TripLimits.photoMaxBytes) {
      problems.push(`${file.name} is too large: ${PHOTO_LIMIT_TEXTS.perPhoto}.`);
    } else if (
      current + accepted.length >= TripLimits.photosPerDestinationMax ||
      tripTotal + accepted.length >= TripLimits.photosPerTripMax
    ) {
      overCount += 1;
    } else if (bytes + file.size > TripLimits.photosTotalMaxBytes) {
      overBytes += 1;
    } else {
      accepted.push(file);
      bytes += file.size;
    }
  }
  if (overCount > 0) {
    const limit =
      current + accepted.length >= TripLimits.photosPerDestinationMax
        ? PHOTO_LIMIT_TEXTS.perDestination
        : PHOTO_LIMIT_TEXTS.perTrip;
    problems.push(`${plural(overCount)} left out: ${limit}.`);
  }
  if (overBytes > 0) {
    problems.push(
      `${plural(overBytes)} left out: ${PHOTO_LIMIT_TEXTS.total} (${formatBytes(bytes)} chosen).`,
    );
  }
  return { accepted, problems };
}

/** Total bytes of a trip's photos. */
export function tripPhotoBytes(draft: Pick<TripDraft<PhotoLike>, 'destinations'>): number {
  return draft.destinations.reduce((sum, d) => sum + d.photos.reduce((s, p) => s + p.size, 0), 0);
}

/**
 * The whole trip checked against TripLimits just before it is sent (the same limits the trips
 * service and the gateway's body cap come from): the sentence to show, or null to send it.
 */
export function tripUploadProblem(
  draft: Pick<TripDraft<PhotoLike>, 'destinations'>,
): string | null {
  const photos = draft.destinations.flatMap((d) => d.photos);
  const tooBig = photos.find((p) => p.size > TripLimits.photoMaxBytes);
  if (tooBig) return `${tooBig.name} is too large: ${PHOTO_LIMIT_TEXTS.perPhoto}.`;
  if (draft.destinations.some((d) => d.photos.length > TripLimits.photosPerDestinationMax)) {
    return `Too many photos: ${PHOTO_LIMIT_TEXTS.perDestination}.`;
  }
  if (photos.length > TripLimits.photosPerTripMax) {
    return `Too many photos: ${PHOTO_LIMIT_TEXTS.perTrip}.`;
  }
  const bytes = tripPhotoBytes(draft);
  if (bytes > TripLimits.photosTotalMaxBytes) {
    return `This trip's photos are too large to send: ${PHOTO_LIMIT_TEXTS.total}, and these total ${formatBytes(bytes)}. Remove some photos and try again.`;
  }
  return null;
}

/** Bytes as a short human size ("820 KB", "3.4 MB"). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / MB).toFixed(1).replace(/\.0$/, '')} MB`;
}
