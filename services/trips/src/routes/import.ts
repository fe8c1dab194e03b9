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
import { drainRequestBody, HttpError, multipartError, requireUserId } from '@wayfarer/service-kit';
import { isoDate } from '../domain/input';
import { importTrips, type ImportUpload } from '../usecases/import-trips';
import type { TripsContext } from './context';

/**
 * `POST /api/import` (issue 22): one file in the `file` part of a multipart form, spooled to
 * the request's spool directory as it arrives (at most `ImportLimits.fileMaxBytes`, 413
 * beyond), then read from there by `importTrips`. 201 with contracts' `ImportResult`.
 */
export function importRoutes(ctx: TripsContext): void {
  ctx.app.post('/api/import', async (request, reply) => {
    const userId = requireUserId(request);
    return ctx.spool.withRequestDir(async (dir) => {
      const upload = await readImportForm(request, reply, dir);
      const result = await importTrips(ctx, userId, upload, dir, isoDate(ctx.now()));
      return reply.code(201).send(result);
    });
  });
}

const messages = {
  fileTooLarge: ImportMessages.fileTooLarge,
  tooManyFiles: ImportMessages.tooManyFiles,
};

/**
 * The form's one file, streamed to `<dir>/upload`. Any other part, a second file, a body that
 * is not multipart: a 4xx, answered once the rest of the body is read and dropped (up to
 * `BodyLimits.import`; as storage's image forms do, so a browser still sending sees the 4xx).
 */
async function readImportForm(
  request: FastifyRequest,
  reply: FastifyReply,
  dir: string,
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
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            bytes += chunk.length;
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
