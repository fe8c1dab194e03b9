import { z } from 'zod';
import {
  filePartOverheadBytes,
  jsonObjectMaxBytes,
  multipartCloseBytes,
  MultipartFraming,
  type MultipartParserLimits,
} from './bodies';
import { TripLimits, TripVisibility } from './trips';

/*
 * Changing a saved trip ("Change what you saved"): `PATCH /api/trips/{id}`, photos
 * added to and removed from a destination, and the trip's version, which every answer holding
 * the trip names in its `ETag` and every change must name in `If-Match` (two tabs editing the
 * same trip: the later save is refused with 412 instead of undoing the other's change).
 *
 * - `PATCH /api/trips/{id}` (JSON, `TripPatch`): any of `name`, `startDate`, `endDate`, and
 *   `destinations`, the whole new list in order. A kept destination carries its `_id` (fields
 *   left out keep their value); a new one has no `_id` and needs `name`, `latitude`,
 *   `longitude` (its dates default to the trip's, its story to ''). A destination left out of
 *   the list is removed, with its photos and its journal. Its photos stay as they are: they are
 *   added and removed by the photo routes. The merged trip is validated exactly as a new one
 *   (`TripInput`). Answer: 200 with the trip (`Trip`, as `GET /api/trips/{id}`).
 * - `POST /api/trips/{id}/destinations/{destinationId}/photos`: multipart, one or more files in
 *   `TRIP_PHOTOS_FIELD`, the creation's image rules and per-destination / per-trip limits;
 *   takes an `Idempotency-Key`. Answer: 201 with the trip.
 * - `DELETE /api/trips/{id}/destinations/{destinationId}/photos/{photoId}`: 200 with the trip.
 *
 * Each takes `If-Match: <the ETag of the trip it changes>` (428 without; 412 when the trip
 * changed since, `TripEditErrors.changed`, nothing changed) and answers the trip with its new
 * `ETag`. Someone else's trip, an unknown trip, destination or photo: 404, as reads.
 */

/** Longest `_id` a destination of a patch may carry (ids are 24 hex characters). */
const DESTINATION_ID_MAX = 64;
/** Longest date or coordinate text counted in the body cap (a date may carry an ISO time). */
const DATE_TEXT_MAX = 64;
const COORDINATE_TEXT_MAX = 64;

/** A coordinate of a patch: a number, or its text as a plain decimal (checked on the merge). */
const patchCoordinate = z.union([z.number(), z.string()]).optional();

/**
 * One destination of `PATCH /api/trips/{id}`'s new list: a kept one names its `_id` and sends
 * the fields it changes; a new one has no `_id`. Values are checked on the merged trip, by the
 * creation's rules (`DestinationInput`), so messages name `destinations.<i>.<field>` of the new
 * list. Any other key is refused (photos are changed by the photo routes).
 */
export const TripPatchDestination = z.strictObject({
  _id: z.string().max(DESTINATION_ID_MAX).optional(),
  name: z.string().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  latitude: patchCoordinate,
  longitude: patchCoordinate,
  story: z.string().optional(),
});
export type TripPatchDestination = z.input<typeof TripPatchDestination>;

/**
 * The body of `PATCH /api/trips/{id}`: what changes; a field left out keeps its value, and
 * `destinations`, when sent, is the whole new list in order. An empty patch changes nothing
 * (200 with the trip as it is, no new version).
 */
export const TripPatch = z.strictObject({
  name: z.string().optional(),
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  destinations: z.array(TripPatchDestination).max(TripLimits.destinationsMax).optional(),
  /** Who sees the trip (`friends` | `private`). */
  visibility: TripVisibility.optional(),
});
export type TripPatch = z.input<typeof TripPatch>;

/** The multipart file field of a photo add (repeated: one part per photo). */
export const TRIP_PHOTOS_FIELD = 'photos';

/** `error` codes of the answers about versions (the frontend offers to reload on `changed`). */
export const TripEditErrors = {
  /** 412: the trip changed since the version named in `If-Match`. */
  changed: 'trip_changed',
  /** 428: a change without `If-Match`. */
  versionRequired: 'if_match_required',
} as const;

/** What the trips service answers about changes (and the edit screen may show). */
export const TripEditMessages = {
  /** 412 (`TripEditErrors.changed`). */
  changedElsewhere:
    'This trip was changed somewhere else (in another tab or on another device) since you opened it. Reload it to see those changes, then make yours again.',
  /** 428 (`TripEditErrors.versionRequired`). */
  versionRequired:
    "A change must name the version of the trip it was made to: send the trip's ETag (from GET /api/trips/{id}) in the If-Match header.",
  unknownDestination: (index: number) =>
    `destinations.${index}._id: this trip has no such destination (a new destination is sent without _id).`,
  repeatedDestination: (index: number) =>
    `destinations.${index}._id: the same destination is listed twice.`,
  required: (index: number, field: string) =>
    `destinations.${index}.${field}: ${field} is required.`,
  destinationNotFound: 'Destination not found.',
  photoNotFound: 'Photo not found.',
  noPhotos: `Choose at least one photo to add (files in the ${TRIP_PHOTOS_FIELD} field).`,
} as const;

/** The `ETag` naming a trip's version (a strong tag: `"3"`). */
export const tripETag = (version: number): string => `"${version}"`;

/**
 * What an `If-Match` header names: `any` for `*` (whatever the current version), else the trip
 * versions it lists (`"3"`, `W/"3"` alike: the tag is only ever compared with the trip's own;
 * anything else in the list names no version). Null when the header is absent.
 */
export function ifMatchVersions(header: string | undefined): 'any' | number[] | null {
  if (header === undefined) return null;
  if (header.trim() === '*') return 'any';
  const versions: number[] = [];
  for (const tag of header.split(',')) {
    const match = /^\s*(?:W\/)?"([1-9]\d{0,14})"\s*$/.exec(tag);
    if (match) versions.push(Number(match[1]));
  }
  return versions;
}

/**
 * The largest legal `PATCH /api/trips/{id}` body (JSON.stringify of a `TripPatch` at every
 * maximum, each character at its longest escape): the trips service's body limit for it.
 */
export const tripPatchBodyMaxBytes =
  jsonObjectMaxBytes({
    name: TripLimits.nameMax,
    startDate: DATE_TEXT_MAX,
    endDate: DATE_TEXT_MAX,
  }) +
  ',"destinations":[]'.length +
  TripLimits.destinationsMax *
    jsonObjectMaxBytes({
      _id: DESTINATION_ID_MAX,
      name: TripLimits.destinationNameMax,
      startDate: DATE_TEXT_MAX,
      endDate: DATE_TEXT_MAX,
      latitude: COORDINATE_TEXT_MAX,
      longitude: COORDINATE_TEXT_MAX,
      story: TripLimits.storyMax,
    }) +
  (TripLimits.destinationsMax - 1); // the commas between destinations

/**
 * The photo add form's multipart limits: at most a destination's worth of photos, no text field
 * (a few are read, to be refused by name).
 */
export const TRIP_PHOTOS_MULTIPART_LIMITS: MultipartParserLimits = {
  fieldNameSize: MultipartFraming.fieldNameMax,
  fieldSize: 1024,
  fields: 5,
  files: TripLimits.photosPerDestinationMax,
  fileSize: TripLimits.photoMaxBytes,
  parts: TripLimits.photosPerDestinationMax + 5,
  headerPairs: 20,
};

/**
 * The largest legal photo add body: a destination's worth of photo parts, their bytes within
 * `TripLimits.photosTotalMaxBytes` (the bound of one request, as at creation). Within the trip
 * form's cap (`BodyLimits.trip`), which the gateway applies to everything under `/api/trips`.
 */
export const tripPhotosBodyMaxBytes =
  TripLimits.photosPerDestinationMax * filePartOverheadBytes(TRIP_PHOTOS_FIELD) +
  Math.min(
    TripLimits.photosTotalMaxBytes,
    TripLimits.photosPerDestinationMax * TripLimits.photoMaxBytes,
  ) +
  multipartCloseBytes;
