import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { textProblem } from '@wayfarer/contracts';
import { HttpError } from './errors';

/*
 * What every service checks of a request's input before its routes see it (`createHttpApp`
 * installs it):
 *
 * - a JSON body declared in any charset but UTF-8 is a 415 (it would be read as UTF-8);
 * - path parameters and query parameters are plain text (contracts' `textProblem`): a control
 *   character or a lone surrogate is a 400 naming the parameter, before any store sees it;
 * - an answer sent before the request body was read (a refused upload, a refused proof) waits
 *   until the rest of the body has been read and dropped, up to the route's body limit, so the
 *   client, which is still sending, gets the answer instead of a broken pipe (and the gateway
 *   a 4xx to forward instead of a 502).
 */

/** The longest a service keeps reading the rest of a refused body before it gives up. */
export const BODY_DRAIN_MAX_MS = 10_000;

/**
 * Reads and drops the rest of `raw`'s body (whatever was piping it is unpiped first): true once
 * the body has ended; false when it was over `maxBytes` (as declared, or as read), took longer
 * than `maxMs`, failed or was aborted (then the connection must close after the answer).
 */
export function drainBody(
  raw: IncomingMessage,
  maxBytes: number,
  maxMs: number = BODY_DRAIN_MAX_MS,
): Promise<boolean> {
  // every byte of it has arrived (a bodyless request too: Node takes care of the rest), or it
  // was read to its end
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  if (raw.destroyed) return Promise.resolve(false);
  const declared = Number(raw.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(false);
  return new Promise((resolve) => {
    let bytes = 0;
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', onEnd);
      raw.off('error', onFail);
      raw.off('close', onClose);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onFail = () => finish(false);
    const onClose = () => finish(raw.complete);
    const timer = setTimeout(onFail, maxMs);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onFail);
    raw.once('close', onClose);
    raw.unpipe();
    raw.resume();
  });
}

/**
 * Waits until the rest of `request`'s body has been read and dropped (`drainBody`, up to
 * `maxBytes`); when it could not be, the answer closes the connection.
 */
export async function drainRequestBody(
  request: FastifyRequest,
  reply: { header(name: string, value: string): unknown },
  maxBytes: number,
): Promise<void> {
  if (!(await drainBody(request.raw, maxBytes))) reply.header('connection', 'close');
}

/** The media type and charset of a Content-Type header (lower-cased; charset unquoted). */
function mediaTypeOf(header: string): { type: string; charset: string | null } {
  const [type = '', ...params] = header.split(';');
  let charset: string | null = null;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
  }
  return { type: type.trim().toLowerCase(), charset };
}

const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json');

/** A 415 for a JSON body declared in another charset than UTF-8 (absent is UTF-8), else null. */
export function jsonCharsetError(contentType: string | undefined): HttpError | null {
  if (!contentType) return null;
  const { type, charset } = mediaTypeOf(contentType);
  if (!isJsonType(type) || charset === null || charset === 'utf-8') return null;
  return new HttpError(
    415,
    `JSON bodies must be UTF-8: this one is declared charset=${charset.replace(/[^\w.:-]/g, '?')}. Send it as UTF-8 (Content-Type: application/json, or application/json; charset=utf-8).`,
  );
}

/** The first path or query parameter that is not plain text, as a 400, else null. */
export function parameterTextError(request: FastifyRequest): HttpError | null {
  const groups = [
    ['Path parameter', request.params],
    ['Query parameter', request.query],
  ] as const;
  for (const [kind, values] of groups) {
    if (!values || typeof values !== 'object') continue;
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      const nameProblem = textProblem(name, 'line');
      if (nameProblem) return new HttpError(400, `${kind} names ${nameProblem}`);
      for (const item of Array.isArray(value) ? value : [value]) {
        const problem = typeof item === 'string' ? textProblem(item, 'line') : null;
        if (problem) return new HttpError(400, `${kind} ${name.slice(0, 100)} ${problem}`);
      }
    }
  }
  return null;
}

/** Installs the checks above on every route of `app` (`createHttpApp` does). */
export function installInputChecks(app: FastifyInstance): void {
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const error = jsonCharsetError(request.headers['content-type']);
    if (error) return done(error);
    done(null, payload);
  });
  app.addHook('preValidation', (request, _reply, done) => {
    done(parameterTextError(request) ?? undefined);
  });
  // a callback hook (no promise per request): most requests were read whole already
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.raw.complete || request.raw.readableEnded) return done(null, payload);
    // already drained as far as it goes (storage's multipart reader, with its form's limit)
    if (reply.getHeader('connection') === 'close') return done(null, payload);
    drainRequestBody(request, reply, request.routeOptions.bodyLimit ?? 0).then(
      () => done(null, payload),
      (err: unknown) => done(err as Error),
    );
  });
}
