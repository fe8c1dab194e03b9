import { TripLimits } from '@wayfarer/contracts';

/** Text fields of a trip (`name`, `startDate`, `endDate`). */
export const TRIP_FIELDS = ['name', 'startDate', 'endDate'] as const;
export type TripField = (typeof TRIP_FIELDS)[number];

/** Text fields of one `destinations[i][...]` group. */
export const DESTINATION_FIELDS = [
  'name',
  'startDate',
  'endDate',
  'latitude',
  'longitude',
  'story',
] as const;
export type DestinationField = (typeof DESTINATION_FIELDS)[number];

/**
 * Multipart limits of `POST /api/trips` (busboy). Sized for the largest valid form (3 trip
 * fields, 6 fields per destination, TripLimits' photos) with a little slack, so that a malformed
 * or flooding body is refused early with a 4xx. A story of 10,000 characters may take 40 KB of
 * UTF-8, hence the field size.
 */
export const TRIP_MULTIPART_LIMITS = {
  fieldNameSize: 100,
  fieldSize: 64 * 1024,
  fields: TRIP_FIELDS.length + TripLimits.destinationsMax * DESTINATION_FIELDS.length + 10,
  files: TripLimits.photosPerTripMax,
  fileSize: TripLimits.photoMaxBytes,
  parts:
    TRIP_FIELDS.length +
    TripLimits.destinationsMax * DESTINATION_FIELDS.length +
    TripLimits.photosPerTripMax +
    20,
  headerPairs: 20,
} as const;

/** The display variant: fits inside this box (never enlarged), WebP at this quality. */
export const DISPLAY_MAX_EDGE = 1600;
export const DISPLAY_QUALITY = 80;
/** Decoding guard against decompression bombs: 100 megapixels (e.g. 12,000 x 8,333). */
export const MAX_INPUT_PIXELS = 100_000_000;

const MB = 1024 * 1024;

export const Messages = {
  photoTooLarge: `Photo too large: each photo must be at most ${TripLimits.photoMaxBytes / MB} MB.`,
  notAnImage: 'must be a JPEG, PNG, WebP or GIF image.',
  unreadableImage: 'could not be read as an image.',
  tooManyPhotosPerDestination: `A destination may have at most ${TripLimits.photosPerDestinationMax} photos.`,
  tooManyPhotosPerTrip: `A trip may have at most ${TripLimits.photosPerTripMax} photos.`,
  tooManyDestinations: `A trip may have at most ${TripLimits.destinationsMax} destinations.`,
  tripNotFound: 'Trip not found.',
  photoNotFound: 'Photo not found.',
  tripDeleted: 'Trip deleted successfully.',
} as const;
