import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { HttpError, multipartError } from '@wayfarer/service-kit';
import { SNIFF_BYTES, sniffImage, type ImageType } from '@wayfarer/storage/image';
import {
  describeFile,
  parseFieldName,
  TripFormCollector,
  type GroupedTripForm,
} from '../domain/form';
import { Messages, TRIP_MULTIPART_LIMITS } from '../domain/limits';
import type { SpooledPhoto } from '../usecases/create-trip';

export interface TripForm {
  grouped: GroupedTripForm;
  photos: SpooledPhoto[];
}

/**
 * Reads the multipart form of `POST /api/trips`. Text fields are grouped by the pure
 * TripFormCollector; each photo is streamed to a file in `spoolDir` (so a trip of 40 large
 * photos does not sit in memory) while its first bytes are sniffed, so a non-image is refused
 * before it is read to the end. Any malformed body or broken limit is a 4xx HttpError.
 */
export async function readTripForm(request: FastifyRequest, spoolDir: string): Promise<TripForm> {
  if (!request.isMultipart()) {
    throw new HttpError(415, 'A trip must be sent as multipart/form-data.');
  }
  const collector = new TripFormCollector();
  const photos: SpooledPhoto[] = [];
  try {
    for await (const part of request.parts({ limits: TRIP_MULTIPART_LIMITS })) {
      const name = part.fieldname;
      if (part.type === 'field') {
        if (part.fieldnameTruncated) throw new HttpError(400, `Unexpected field "${name}".`);
        if (part.valueTruncated) throw new HttpError(400, `The ${name} field is too long.`);
        if (typeof part.value !== 'string') {
          throw new HttpError(400, `The ${name} field must be plain text.`);
        }
        // A browser form with no file chosen may send an empty text part for a file input.
        if (part.value === '' && parseFieldName(name).kind === 'photos') continue;
        collector.field(name, part.value);
        continue;
      }
      const ref = parseFieldName(name);
      if (ref.kind !== 'photos') {
        part.file.resume();
        throw new HttpError(400, `Unexpected file "${name}": only photos[i] are files.`);
      }
      // busboy leaves the file name undefined when the part has none
      const filename = (part.filename as string | undefined) ?? '';
      const path = join(spoolDir, String(photos.length));
      const spooled = await spool(part.file, path, describeFile(name, filename));
      if (part.file.truncated) throw new HttpError(413, Messages.photoTooLarge);
      // A browser form with no file chosen sends an empty part with an empty or no file name.
      if (spooled.bytes === 0 && !filename) {
        await rm(path, { force: true });
        continue;
      }
      if (!spooled.type) {
        throw new HttpError(400, `${describeFile(name, filename)} ${Messages.notAnImage}`);
      }
      const index = collector.photo(name);
      photos.push({
        index,
        field: name,
        filename,
        path,
        bytes: spooled.bytes,
        type: spooled.type,
      });
    }
  } catch (err) {
    throw multipartError(err, {
      fileTooLarge: Messages.photoTooLarge,
      tooManyFiles: Messages.tooManyPhotosPerTrip,
    });
  }
  return { grouped: collector.finish(), photos };
}

/** Streams `file` to `path`, sniffing its head; a head that is no image fails at once. */
async function spool(
  file: NodeJS.ReadableStream,
  path: string,
  label: string,
): Promise<{ bytes: number; type: ImageType | null }> {
  let head = Buffer.alloc(0);
  let type: ImageType | null = null;
  let bytes = 0;
  const notAnImage = () => new HttpError(400, `${label} ${Messages.notAnImage}`);
  const sniffer = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      if (!type) {
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES)]);
        if (head.length >= SNIFF_BYTES) {
          type = sniffImage(head);
          if (!type) return callback(notAnImage());
        }
      }
      callback(null, chunk);
    },
    flush(callback) {
      if (!type && bytes > 0) {
        type = sniffImage(head);
        if (!type) return callback(notAnImage());
      }
      callback();
    },
  });
  await pipeline(file, sniffer, createWriteStream(path));
  return { bytes, type };
}
