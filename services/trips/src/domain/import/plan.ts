import { ImportLimits, ImportMessages, TripInput, TripLimits } from '@wayfarer/contracts';
import { ImportLimitError, InvalidTripError } from '../errors';
import { checkPhotos } from './bounds';
import type { DraftPlace, DraftTrip, ImportDraft, PhotoRef } from './draft';
import { cleanLine, cleanMultiline, cut } from './text';

/** One trip to create: its input (valid `TripInput`) and its photos, by destination index. */
export interface PlannedTrip {
  input: TripInput;
  photos: { index: number; photo: PhotoRef }[];
}

export interface ImportPlan {
  trips: PlannedTrip[];
  skipped: { photos: number; destinations: number; trips: number };
}

/**
 * The import's rules, applied to what a parser read (pure):
 * - a place needs finite coordinates within range (else skipped); its name is cleaned and cut
 *   (`Place N` when it has none), its story too; a place without dates takes `today`, one
 *   ending before it starts ends on its start day;
 * - a place keeps at most `TripLimits.photosPerDestinationMax` photos, none over
 *   `TripLimits.photoMaxBytes` (the rest are counted as skipped);
 * - a trip longer than one trip may be (`destinationsMax` destinations, `photosPerTripMax`
 *   photos, `photosTotalMaxBytes`) is SPLIT, in order, into parts named `Name (1/3)`, ...:
 *   nothing the limits allow is dropped;
 * - each trip's dates span its destinations'.
 * Nothing to import at all is an InvalidTripError (a 400). More than `ImportLimits.tripsMax`
 * trips (parts counted), or `ImportLimits.photosMax` photos kept, is an ImportLimitError (413:
 * refused, never partly imported).
 */
export function planImport(draft: ImportDraft, today: string): ImportPlan {
  const skipped = { photos: 0, destinations: draft.skippedPlaces, trips: 0 };
  const trips: PlannedTrip[] = [];
  for (const draftTrip of draft.trips) {
    const places = draftTrip.places.flatMap((place, i) => {
      const clean = cleanPlace(place, i, today, skipped);
      return clean ? [clean] : [];
    });
    if (places.length === 0) {
      skipped.trips++;
      continue;
    }
    const parts = split(places);
    if (trips.length + parts.length > ImportLimits.tripsMax) {
      throw new ImportLimitError(ImportMessages.tooManyTrips);
    }
    parts.forEach((part, i) => {
      trips.push(tripOf(draftTrip, part, parts.length > 1 ? ` (${i + 1}/${parts.length})` : ''));
    });
  }
  if (trips.length === 0) throw new InvalidTripError(ImportMessages.nothingToImport);
  checkPhotos(trips.reduce((sum, trip) => sum + trip.photos.length, 0));
  return { trips, skipped };
}

interface CleanPlace {
  name: string;
  latitude: number;
  longitude: number;
  startDate: string;
  endDate: string;
  story: string;
  photos: PhotoRef[];
}

const inRange = (value: number, limit: number) =>
  Number.isFinite(value) && value >= -limit && value <= limit;

function cleanPlace(
  place: DraftPlace,
  i: number,
  today: string,
  skipped: ImportPlan['skipped'],
): CleanPlace | null {
  if (!inRange(place.latitude, 90) || !inRange(place.longitude, 180)) {
    skipped.destinations++;
    skipped.photos += place.photos.length;
    return null;
  }
  const startDate = place.startDate ?? place.endDate ?? today;
  const end = place.endDate ?? startDate;
  const photos = place.photos
    .filter((photo) => photo.bytes <= TripLimits.photoMaxBytes)
    .slice(0, TripLimits.photosPerDestinationMax);
  skipped.photos += place.photos.length - photos.length;
  return {
    name: cleanLine(place.name, TripLimits.destinationNameMax) || `Place ${i + 1}`,
    latitude: place.latitude,
    longitude: place.longitude,
    startDate,
    endDate: end < startDate ? startDate : end,
    story: cleanMultiline(place.story, TripLimits.storyMax),
    photos,
  };
}

/** The places cut into runs each within one trip's destination and photo limits. */
function split(places: CleanPlace[]): CleanPlace[][] {
  const parts: CleanPlace[][] = [];
  let part: CleanPlace[] = [];
  let photos = 0;
  let bytes = 0;
  for (const place of places) {
    const placeBytes = place.photos.reduce((sum, photo) => sum + photo.bytes, 0);
    const full =
      part.length >= TripLimits.destinationsMax ||
      photos + place.photos.length > TripLimits.photosPerTripMax ||
      bytes + placeBytes > TripLimits.photosTotalMaxBytes;
    if (full && part.length > 0) {
      parts.push(part);
      part = [];
      photos = 0;
      bytes = 0;
    }
    part.push(place);
    photos += place.photos.length;
    bytes += placeBytes;
  }
  parts.push(part);
  return parts;
}

function tripOf(draft: DraftTrip, places: CleanPlace[], suffix: string): PlannedTrip {
  const name = cut(cleanLine(draft.name, TripLimits.nameMax), TripLimits.nameMax - suffix.length);
  const startDate = places.reduce((min, p) => (p.startDate < min ? p.startDate : min), '9999');
  const endDate = places.reduce((max, p) => (p.endDate > max ? p.endDate : max), '0000');
  const input = TripInput.parse({
    name: `${name.trim()}${suffix}`,
    startDate,
    endDate,
    visibility: draft.visibility,
    destinations: places.map(({ photos: _photos, ...destination }) => destination),
  });
  return {
    input,
    photos: places.flatMap((place, index) => place.photos.map((photo) => ({ index, photo }))),
  };
}
