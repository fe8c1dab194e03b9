import type { IncomingMessage, ServerResponse } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bodyTooLargeMessage } from './routes';

/**
 * Request bodies at the edge: the route's cap while a body streams through, and what is left of
 * a body once nobody forwards it any more.
 *
 * **Caps.** A body above its route's cap gets one clean 413, at once, declared or chunked:
 *
 * - declared (Content-Length) above the cap: refused before anything is forwarded;
 * - chunked (or lying): the bytes are counted as they stream to the service; past the cap the
 *   upstream request is destroyed (the service never sees a complete request) and the gateway
 *   answers 413 itself. The proxy's error handler then stays silent for that request
 *   (`wasRefusedForSize`), so nothing is sent twice.
 *
 * **The rest of the body.** Whenever an answer goes out before the client has sent its whole
 * body (the gateway's 413, or a service's early answer, e.g. a 400 for a file that is not an
 * image), the gateway goes on reading and dropping what the client sends (`dropRestOfBody`):
 * closing a connection the client is still writing into makes the kernel reset it, and the
 * client may lose the answer (a browser shows a network error, curl "connection reset"). It
 * stops after `maxBytes` more bytes or DRAIN_IDLE_MS without one, and then closes the connection
 * as soon as the answer is out; a body read to its end leaves the connection reusable.
 */

/** How much more of a refused (over-cap) body is read and dropped after the 413. */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
/** A body being dropped that sends nothing for this long is cut off (its connection closed). */
export const DRAIN_IDLE_MS = 5_000;

const refusedForSize = new WeakSet<object>();
const upstreamAnswered = new WeakSet<object>();
const dropping = new WeakSet<IncomingMessage>();
const ignore = () => undefined;

/** True once the gateway has refused this request's body: no other answer may be sent. */
export const wasRefusedForSize = (request: object): boolean => refusedForSize.has(request);

/** Called when the service's answer arrives: from then on its answer stands, not a 413. */
export function markUpstreamAnswered(request: object): void {
  upstreamAnswered.add(request);
}

/**
 * Answers 413 at once (the cap in the message) and drops the rest of the client's body, at most
 * DRAIN_MAX_BYTES more: a client that sends its whole body still reads the answer.
 */
export function refuseBody(
  request: FastifyRequest,
  reply: FastifyReply,
  maxBytes: number,
): FastifyReply {
  refusedForSize.add(request);
  dropRestOfBody(request.raw, reply.raw, DRAIN_MAX_BYTES);
  if (reply.sent || reply.raw.headersSent) return reply;
  return reply
    .code(413)
    .send({ error: 'payload_too_large', message: bodyTooLargeMessage(maxBytes) });
}

/**
 * The body as forwarded to the service: the client's stream, counted. Past `maxBytes` the
 * stream is destroyed (which aborts the upstream request) and the 413 is sent. Once the upstream
 * request stops taking the body (the service answered early, or failed), the rest of the
 * client's body is dropped, up to the route's cap.
 */
export function countBody(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Readable,
  maxBytes: number,
): Readable {
  let seen = 0;
  let over = false;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen <= maxBytes) return callback(null, chunk);
      callback();
      if (over) return;
      over = true;
      body.unpipe(counted);
      counted.destroy(new BodyTooLargeError(maxBytes));
      // the service's answer (already on its way) stands; the client broke the cap after it
      if (upstreamAnswered.has(request)) closeAfterAnswer(request.raw, reply.raw);
      else refuseBody(request, reply, maxBytes);
    },
  });
  // Its errors are the gateway's own (the 413 above, the client gone): they abort the upstream
  // request, which may not have attached its listener yet, and must never reach the process.
  counted.on('error', ignore);
  body.pipe(counted);
  // the client went away mid-body: abandon the upstream request too
  body.once('error', (err) => counted.destroy(err));
  body.once('close', () => {
    if (!body.readableEnded && !over) counted.destroy(new Error('client closed the request'));
  });
  // the upstream request stopped taking the body (the service answered early and closed, or
  // failed): drop the rest, so the connection is not reset under the answer
  counted.once('close', () => {
    if (!over) dropRestOfBody(request.raw, reply.raw, maxBytes - seen);
  });
  return counted;
}

export class BodyTooLargeError extends Error {
  readonly code = 'WAYFARER_BODY_TOO_LARGE';
  constructor(maxBytes: number) {
    super(`request body above the route's cap of ${maxBytes} bytes`);
  }
}

/**
 * Reads and drops what is left of `raw`'s body (nothing when it has all arrived), so the answer
 * reaches a client that is still sending. Past `maxBytes` more bytes, or DRAIN_IDLE_MS without
 * one, it stops and closes the connection once the answer is out. Once per request.
 */
export function dropRestOfBody(raw: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  if (raw.complete || raw.destroyed || dropping.has(raw)) return;
  dropping.add(raw);
  // Not Node's own `Connection: close` (a client may ask for it, e.g. Node's agent-less
  // requests), which would close the connection under the client as soon as the answer is
  // written: this drain closes it when the body ends badly, and a client that asked closes it.
  if (!res.headersSent) res.shouldKeepAlive = true;
  let bytes = 0;
  const stop = (ended: boolean) => {
    clearTimeout(timer);
    raw.off('data', onData);
    raw.off('end', onEnd);
    raw.off('close', onEnd);
    if (ended) return;
    raw.pause();
    closeAfterAnswer(raw, res);
  };
  const onData = (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > maxBytes) stop(false);
    else timer.refresh();
  };
  const onEnd = () => stop(true);
  const timer = setTimeout(() => stop(false), DRAIN_IDLE_MS);
  raw.on('data', onData);
  raw.once('end', onEnd);
  raw.once('close', onEnd);
  raw.unpipe();
  raw.resume();
}

/** Closes the client's connection as soon as the answer on it has been written. */
function closeAfterAnswer(raw: IncomingMessage, res: ServerResponse): void {
  const socket = raw.socket;
  if (res.writableFinished || res.destroyed) socket.destroy();
  else res.once('close', () => socket.destroy());
}
