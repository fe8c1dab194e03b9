import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MultipartParserLimits } from '@wayfarer/contracts';
import {
  drainRequestBody,
  HttpError,
  multipartError,
  type MultipartMessages,
} from '@wayfarer/service-kit';
import type { RequestFingerprint } from '@wayfarer/service-kit';
import { SNIFF_BYTES, sniffImage, type ImageType } from './image';

/**
 * Reading image files out of a multipart form (needs `@fastify/multipart` registered): each
 * file part is streamed to a spool file while its head is sniffed, so a non-image is refused as
 * soon as its first bytes are known and nothing large sits in memory. Text parts go to the
 * form's own handler. The files still have to go through the image pipeline (`./pipeline`)
 * before anything is stored.
 */

/** An image file of the form, spooled to disk and typed by its first bytes. */
export interface SpooledImage {
  field: string;
  /** As the client named it ('' when none). */
  filename: string;
  /** How messages name this file (from `ImageFormOptions.file`). */
  label: string;
  path: string;
  bytes: number;
  type: ImageType;
}

export interface ImageFormMessages extends MultipartMessages {
  /** 415: the body is not multipart/form-data. */
  notMultipart: string;
  /** 400: a file whose first bytes are not a PNG, JPEG, GIF or WebP (or an empty file). */
  notAnImage(label: string): string;
  /** 413: the files together are over `maxTotalFileBytes`. */
  totalTooLarge?: string;
}

export interface ImageFormOptions {
  /** An existing directory for the spool files (a `SpoolArea`'s `withRequestDir`). */
  spoolDir: string;
  /** The form's busboy limits (contracts define each form's). */
  limits: MultipartParserLimits;
  /**
   * The largest legal body of the form (contracts' `BodyLimits`): after a refusal the rest of
   * the body is read up to this before the answer goes.
   */
  bodyMaxBytes: number;
  messages: ImageFormMessages;
  /** Most bytes all files of the form may have together (none: only `limits.fileSize`). */
  maxTotalFileBytes?: number;
  /**
   * A text part, already checked to be plain text within the limits. Throw an HttpError to
   * refuse it. (A browser sends an empty text part for a file input with no file chosen.)
   */
  field(name: string, value: string): void;
  /** A file part starts: throw an HttpError to refuse its field; return its label. */
  file(name: string, filename: string): string;
  /** A file was read whole and its head is an image: throw to refuse it (e.g. too many). */
  accept?(file: SpooledImage): void;
  /**
   * Fed every part as it is read: each text field, and each file's name and bytes as they
   * stream (an idempotent create's request fingerprint, service-kit `RequestFingerprint`).
   */
  fingerprint?: RequestFingerprint;
}

/**
 * Reads the multipart form of `request` into spooled image files (in order), handing text parts
 * to `options.field`. Every malformed body or broken limit is a 4xx HttpError, thrown once the
 * rest of the body has been read and dropped (up to `options.bodyMaxBytes`): the client is
 * still sending when a file is refused by its first bytes, and answering then would break its
 * pipe (a network error in a browser, a 502 from the gateway) instead of showing the 4xx. A
 * body over the limit, or one that stalls, gets the answer with the connection closed.
 */
export async function readImageForm(
  request: FastifyRequest,
  reply: FastifyReply,
  options: ImageFormOptions,
): Promise<SpooledImage[]> {
  try {
    return await readParts(request, options);
  } catch (err) {
    await drainRequestBody(request, reply, options.bodyMaxBytes);
    throw err;
  }
}

async function readParts(
  request: FastifyRequest,
  options: ImageFormOptions,
): Promise<SpooledImage[]> {
  const { messages } = options;
  if (!request.isMultipart()) throw new HttpError(415, messages.notMultipart);
  const files: SpooledImage[] = [];
  const total = { bytes: 0 };
  let spooled = 0;
  try {
    for await (const part of request.parts({ limits: options.limits })) {
      const name = part.fieldname;
      if (part.type === 'field') {
        const value = textValue(part);
        options.fingerprint?.field(name, value);
        options.field(name, value);
        continue;
      }
      // busboy leaves the file name undefined when the part has none
      const filename = (part.filename as string | undefined) ?? '';
      let label: string;
      try {
        label = options.file(name, filename);
        options.fingerprint?.file(name, filename);
      } catch (err) {
        part.file.resume();
        throw err;
      }
      const path = join(options.spoolDir, String(spooled++));
      const file = await spool(part.file, path, {
        notAnImage: () => new HttpError(400, messages.notAnImage(label)),
        total,
        fingerprint: options.fingerprint,
        maxTotal: options.maxTotalFileBytes,
        totalTooLarge: () => new HttpError(413, messages.totalTooLarge ?? messages.fileTooLarge),
      });
      if (part.file.truncated) throw new HttpError(413, messages.fileTooLarge);
      // A browser form with no file chosen sends an empty part with an empty or no file name.
      if (file.bytes === 0 && !filename) {
        await rm(path, { force: true });
        continue;
      }
      if (!file.type) throw new HttpError(400, messages.notAnImage(label));
      const image: SpooledImage = { field: name, filename, label, path, ...file, type: file.type };
      options.accept?.(image);
      files.push(image);
    }
  } catch (err) {
    throw multipartError(err, messages);
  }
  return files;
}

/** A text part's value, refused unless it is plain text within the limits. */
function textValue(part: Multipart & { type: 'field' }): string {
  const name = part.fieldname;
  if (part.fieldnameTruncated) throw new HttpError(400, `Unexpected field "${name}".`);
  if (part.valueTruncated) throw new HttpError(400, `The ${name} field is too long.`);
  if (typeof part.value !== 'string') {
    throw new HttpError(400, `The ${name} field must be plain text.`);
  }
  return part.value;
}

/** Streams `file` to `path`, sniffing its head and counting bytes; fails at the first problem. */
async function spool(
  file: NodeJS.ReadableStream,
  path: string,
  checks: {
    notAnImage: () => Error;
    total: { bytes: number };
    fingerprint?: RequestFingerprint;
    maxTotal: number | undefined;
    totalTooLarge: () => Error;
  },
): Promise<{ bytes: number; type: ImageType | null }> {
  let head = Buffer.alloc(0);
  let type: ImageType | null = null;
  let bytes = 0;
  const sniffer = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      bytes += chunk.length;
      checks.fingerprint?.fileBytes(chunk);
      checks.total.bytes += chunk.length;
      if (checks.maxTotal !== undefined && checks.total.bytes > checks.maxTotal) {
        return callback(checks.totalTooLarge());
      }
      if (!type) {
        head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES)]);
        if (head.length >= SNIFF_BYTES) {
          type = sniffImage(head);
          if (!type) return callback(checks.notAnImage());
        }
      }
      callback(null, chunk);
    },
    flush(callback) {
      if (!type && bytes > 0) {
        type = sniffImage(head);
        if (!type) return callback(checks.notAnImage());
      }
      callback();
    },
  });
  await pipeline(file, sniffer, createWriteStream(path));
  return { bytes, type };
}
