import { createWriteStream } from 'node:fs';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  BodyLimits,
  IMPORT_FIELD,
  IMPORT_MULTIPART_LIMITS,
  ImportMessages,
} from '@wayfarer/contracts';
import type { RequestFingerprint } from '@wayfarer/service-kit';
import {
  drainRequestBody,
  HttpError,
  multipartError,
  requireUserId,
  sendOutcome,
  streamedClaim,
} from '@wayfarer/service-kit';
import { ImportRateError } from '../domain/errors';
import { isoDate } from '../domain/input';
import { importFile } from '../usecases/import-job';
import type { ImportUpload } from '../usecases/import-trips';
import type { TripsContext } from './context';

/**
 * `POST /api/import`: one file in the `file` part of a multipart form, spooled to
 * the request's spool directory as it arrives (at most `ImportLimits.fileMaxBytes`, 413
 * beyond), then imported as one unit by `runImport` (all of its trips or none, shown at once).
 * 201 with contracts' `ImportResult`. Takes an `Idempotency-Key` (a bad one: 400 before the
 * body is read): a retry is answered the first import's result (`Idempotent-Replayed: true`),
 * or waits for it while it runs, or finishes it; the key with another file is a 422. A user
 * past `ImportLimits.perUserPerHour` imports is answered 429 with `Retry-After` before the
 * file is read (a retry of a recorded key is not a new import).
 */
export function importRoutes(ctx: TripsContext): void {
  ctx.app.post('/api/import', async (request, reply) => {
    const userId = requireUserId(request);
    const keyed = streamedClaim(request, userId);
    return ctx.spool.withRequestDir(async (dir) => {
      let read = false;
      try {
        const outcome = await importFile(ctx, {
          ownerId: userId,
          keyed,
          readUpload: () => {
            read = true;
            return readImportForm(request, reply, dir, keyed.fingerprint);
          },
          spoolDir: dir,
          today: isoDate(ctx.now()),
        });
        return sendOutcome(reply, outcome);
      } catch (err) {
        // refused before the file was read (the rate): the body is read and dropped first
        if (!read) await drainRequestBody(request, reply, BodyLimits.import);
        throw withRetryAfter(reply, err);
      }
    });
  });
}

/** A rate refusal's `Retry-After` (whole seconds) set on the reply; the error as it is. */
function withRetryAfter(reply: FastifyReply, err: unknown): unknown {
  if (err instanceof ImportRateError) {
    reply.header('retry-after', String(Math.ceil(err.retryAfterMs / 1000)));
  }
  return err;
}

const messages = {
  fileTooLarge: ImportMessages.fileTooLarge,
  tooManyFiles: ImportMessages.tooManyFiles,
};

/**
 * The form's one file, streamed to `<dir>/upload` (and into `fingerprint`, with a key). Any other part, a second file, a body that
 * is not multipart: a 4xx, answered once the rest of the body is read and dropped (up to
 * `BodyLimits.import`; as storage's image forms do, so a browser still sending sees the 4xx).
 */
async function readImportForm(
  request: FastifyRequest,
  reply: FastifyReply,
  dir: string,
  fingerprint?: RequestFingerprint,
): Promise<ImportUpload> {
  try {
    if (!request.isMultipart()) throw new HttpError(415, ImportMessages.notMultipart);
    let upload: ImportUpload | null = null;
    try {
      for await (const part of request.parts({ limits: IMPORT_MULTIPART_LIMITS })) {
        if (part.type === 'field' || part.fieldname !== IMPORT_FIELD) {
          if (part.type === 'file') part.file.resume();
          throw new HttpError(400, ImportMessages.notMultipart);
        }
        if (upload) {
          part.file.resume();
          throw new HttpError(400, ImportMessages.tooManyFiles);
        }
        const path = join(dir, 'upload');
        let bytes = 0;
        fingerprint?.file(part.fieldname, (part.filename as string | undefined) ?? '');
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            bytes += chunk.length;
            fingerprint?.fileBytes(chunk);
            callback(null, chunk);
          },
        });
        await pipeline(part.file, counter, createWriteStream(path));
        if (part.file.truncated) throw new HttpError(413, ImportMessages.fileTooLarge);
        upload = { path, bytes, filename: (part.filename as string | undefined) ?? '' };
      }
    } catch (err) {
      throw multipartError(err, messages);
    }
    if (!upload) throw new HttpError(400, ImportMessages.noFile);
    return upload;
  } catch (err) {
    await drainRequestBody(request, reply, BodyLimits.import);
    throw err;
  }
}
