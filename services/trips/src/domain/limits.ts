import {
  DESTINATION_FIELDS,
  TRIP_FIELDS,
  TRIP_MULTIPART_LIMITS,
  TripEditMessages,
  TripLimits,
} from '@wayfarer/contracts';

/**
 * The form's field names and its multipart limits (sized for the largest legal form, with slack
 * in the counts) live in contracts, where the gateway's body cap is derived from them.
 */
export { DESTINATION_FIELDS, TRIP_FIELDS, TRIP_MULTIPART_LIMITS };

/**
 * Trip fields of the form that may be left out (`visibility`, contracts'
 * `TripInput.visibility`, absent: `friends`); `TRIP_FIELDS` are always sent.
 */
export const OPTIONAL_TRIP_FIELDS = ['visibility'] as const;
export type TripField = (typeof TRIP_FIELDS)[number] | (typeof OPTIONAL_TRIP_FIELDS)[number];
export type DestinationField = (typeof DESTINATION_FIELDS)[number];

const MB = 1024 * 1024;

export const Messages = {
  photoTooLarge: `Photo too large: each photo must be at most ${TripLimits.photoMaxBytes / MB} MB.`,
  photosTooLarge: `Photos too large: a trip's photos must be at most ${TripLimits.photosTotalMaxBytes / MB} MB in total.`,
  notAnImage: 'must be a JPEG, PNG, WebP or GIF image.',
  unreadableImage: 'could not be read as an image.',
  tooManyPhotosPerDestination: `A destination may have at most ${TripLimits.photosPerDestinationMax} photos.`,
  tooManyPhotosPerTrip: `A trip may have at most ${TripLimits.photosPerTripMax} photos.`,
  tooManyDestinations: `A trip may have at most ${TripLimits.destinationsMax} destinations.`,
  missingTripFields: (missing: readonly string[]) =>
    `Not a trip form: it has no ${missing.join(', ')} field${missing.length > 1 ? 's' : ''}. A trip is sent with the fields ${TRIP_FIELDS.join(', ')} (each may be empty) and its destinations.`,
  uploadExpired: 'The photos took too long to store; please try again.',
  tripNotFound: 'Trip not found.',
  photoNotFound: TripEditMessages.photoNotFound,
  tripDeleted: 'Trip deleted successfully.',
  /** 503: a write lost its race with others on the same trip too many times in a row. */
  busy: 'The trip is being changed by other requests right now; please try again.',
  destinationNotFound: TripEditMessages.destinationNotFound,
} as const;
