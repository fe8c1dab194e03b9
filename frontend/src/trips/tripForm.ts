import { TripLimits } from '@wayfarer/contracts';

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
 * The multipart fields in order: `name`, `startDate`, `endDate`, then per destination i
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
  draft.destinations.forEach((d, i) => {
    const field = (key: string) => `destinations[${i}][${key}]`;
    entries.push(
      [field('name'), d.name],
      [field('startDate'), d.startDate],
      [field('endDate'), d.endDate],
      [field('latitude'), String(d.latitude)],
      [field('longitude'), String(d.longitude)],
      [field('story'), d.story],
    );
    for (const photo of d.photos) entries.push([`photos[${i}]`, photo]);
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
export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] as const;
export const PHOTO_ACCEPT = PHOTO_TYPES.join(',');
const PHOTO_EXTENSIONS: Record<string, (typeof PHOTO_TYPES)[number]> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jfif: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
};

/** A JPEG, PNG, WebP or GIF, by MIME type or (when the browser reports none) by extension. */
export function isSupportedPhoto(file: Pick<PhotoLike, 'name' | 'type'>): boolean {
  const type = file.type.trim().toLowerCase();
  if (type) return (PHOTO_TYPES as readonly string[]).includes(type);
  const ext = file.name.includes('.') ? (file.name.split('.').pop() ?? '').toLowerCase() : '';
  return ext in PHOTO_EXTENSIONS;
}

const MB = 1024 * 1024;

export interface PhotoCheck<P extends PhotoLike> {
  accepted: P[];
  /** One message per refused file (or group), to show under the input. */
  problems: string[];
}

/**
 * Which of the newly chosen files may join a destination that already has `current` photos,
 * in a trip that already has `tripTotal` (other destinations' photos included): images of the
 * four decodable types, at most 15 MB each, 10 per destination and 40 per trip (TripLimits).
 */
export function checkPhotos<P extends PhotoLike>(
  chosen: readonly P[],
  current: number,
  tripTotal: number,
): PhotoCheck<P> {
  const accepted: P[] = [];
  const problems: string[] = [];
  const maxMb = Math.round(TripLimits.photoMaxBytes / MB);
  let overCount = 0;
  for (const file of chosen) {
    if (!isSupportedPhoto(file)) {
      problems.push(`${file.name} is not a JPEG, PNG, WebP or GIF image.`);
    } else if (file.size === 0) {
      problems.push(`${file.name} is empty.`);
    } else if (file.size > TripLimits.photoMaxBytes) {
      problems.push(`${file.name} is too large: each photo must be at most ${maxMb} MB.`);
    } else if (
      current + accepted.length >= TripLimits.photosPerDestinationMax ||
      tripTotal + accepted.length >= TripLimits.photosPerTripMax
    ) {
      overCount += 1;
    } else {
      accepted.push(file);
    }
  }
  if (overCount > 0) {
    const limit =
      current + accepted.length >= TripLimits.photosPerDestinationMax
        ? `${TripLimits.photosPerDestinationMax} photos per destination`
        : `${TripLimits.photosPerTripMax} photos per trip`;
    problems.push(
      `${overCount} photo${overCount === 1 ? ' was' : 's were'} left out: at most ${limit}.`,
    );
  }
  return { accepted, problems };
}

/** Bytes as a short human size ("820 KB", "3.4 MB"). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < MB) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / MB).toFixed(1).replace(/\.0$/, '')} MB`;
}
