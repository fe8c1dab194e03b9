import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError, type RequestFingerprint } from '@wayfarer/service-kit';
import {
  BodyLimits,
  TRIP_PHOTOS_FIELD,
  TRIP_PHOTOS_MULTIPART_LIMITS,
  TripLimits,
  tripPhotosBodyMaxBytes,
} from '@wayfarer/contracts';
import { readImageForm, type SpooledImage } from '@wayfarer/storage/upload';
import {
  describeFile,
  parseFieldName,
  TripFormCollector,
  type GroupedTripForm,
} from '../domain/form';
import { Messages, TRIP_MULTIPART_LIMITS } from '../domain/limits';
import type { SpooledPhoto } from '../usecases/create-trip';
import { withHttpErrors } from './errors';

export interface TripForm {
  grouped: GroupedTripForm;
  photos: SpooledPhoto[];
}

/**
 * Reads the multipart form of `POST /api/trips` with storage's shared reader. Text fields are
 * grouped by the pure TripFormCollector; each photo is streamed to a file in `spoolDir` (so a
 * trip of 40 large photos does not sit in memory) while its first bytes are sniffed, so a
 * non-image is refused before it is read to the end, and the photos together may not pass
 * TripLimits.photosTotalMaxBytes (413). Any malformed body or broken limit is a 4xx HttpError
 * (the collector's refusals too: storage's reader passes HttpErrors on as they are).
 * `fingerprint` (an idempotent create's) is fed every part and file as it streams.
 */
export async function readTripForm(
  request: FastifyRequest,
  reply: FastifyReply,
  spoolDir: string,
  fingerprint?: RequestFingerprint,
): Promise<TripForm> {
  const collector = new TripFormCollector();
  const indexes: number[] = [];
  const files = await readImageForm(request, reply, {
    spoolDir,
    limits: TRIP_MULTIPART_LIMITS,
    fingerprint,
    bodyMaxBytes: BodyLimits.trip,
    maxTotalFileBytes: TripLimits.photosTotalMaxBytes,
    messages: {
      notMultipart: 'A trip must be sent as multipart/form-data.',
      notAnImage: (label) => `${label} ${Messages.notAnImage}`,
      fileTooLarge: Messages.photoTooLarge,
      totalTooLarge: Messages.photosTooLarge,
      tooManyFiles: Messages.tooManyPhotosPerTrip,
    },
    field(name, value) {
      withHttpErrors(() => {
        // A browser form with no file chosen may send an empty text part for a file input.
        if (value === '' && parseFieldName(name).kind === 'photos') return;
        collector.field(name, value);
      });
    },
    file(name, filename) {
      if (withHttpErrors(() => parseFieldName(name)).kind !== 'photos') {
        throw new HttpError(400, `Unexpected file "${name}": only photos[i] are files.`);
      }
      return describeFile(name, filename);
    },
    accept(file) {
      indexes.push(withHttpErrors(() => collector.photo(file.field)));
    },
  });
  return {
    grouped: withHttpErrors(() => collector.finish()),
    photos: files.map((file, i) => ({ ...file, index: indexes[i]! })),
  };
}

/**
 * Reads the multipart form of a photo add (`POST /api/trips/{id}/destinations/{d}/photos`):
 * files in `TRIP_PHOTOS_FIELD` only (an empty part of that field, a browser's "no file
 * chosen", is ignored), spooled and sniffed as the trip form's, at most a destination's worth,
 * their bytes within `TripLimits.photosTotalMaxBytes` (413). Anything else is a 4xx HttpError.
 */
export async function readPhotoForm(
  request: FastifyRequest,
  reply: FastifyReply,
  spoolDir: string,
  fingerprint?: RequestFingerprint,
): Promise<SpooledImage[]> {
  const unexpected = (name: string) =>
    new HttpError(
      400,
      `Unexpected field "${name}": photos are sent as files in the ${TRIP_PHOTOS_FIELD} field.`,
    );
  return readImageForm(request, reply, {
    spoolDir,
    limits: TRIP_PHOTOS_MULTIPART_LIMITS,
    fingerprint,
    bodyMaxBytes: tripPhotosBodyMaxBytes,
    maxTotalFileBytes: TripLimits.photosTotalMaxBytes,
    messages: {
      notMultipart: 'Photos must be sent as multipart/form-data.',
      notAnImage: (label) => `${label} ${Messages.notAnImage}`,
      fileTooLarge: Messages.photoTooLarge,
      totalTooLarge: Messages.photosTooLarge,
      tooManyFiles: Messages.tooManyPhotosPerDestination,
    },
    field(name, value) {
      if (!(name === TRIP_PHOTOS_FIELD && value === '')) throw unexpected(name);
    },
    file(name, filename) {
      if (name !== TRIP_PHOTOS_FIELD) throw unexpected(name);
      return describeFile(name, filename);
    },
  });
}
