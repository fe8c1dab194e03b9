import {
  DESTINATION_FIELDS,
  TRIP_FIELDS,
  TRIP_MULTIPART_LIMITS,
  TripLimits,
} from '@wayfarer/contracts';

/**
 * The form's field names and its multipart limits (sized for the largest legal form, with slack
 * in the counts) live in contracts, where the gateway's body cap is derived from them.
 */
export { DESTINATION_FIELDS, TRIP_FIELDS, TRIP_MULTIPART_LIMITS };
export type TripField = (typeof TRIP_FIELDS)[number];
export type DestinationField = (typeof DESTINATION_FIELDS)[number];

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
