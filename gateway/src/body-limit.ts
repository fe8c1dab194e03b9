import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { bodyTooLargeMessage } from './routes';

/**
 * Body caps while streaming. A body above its route's cap is refused with one clean 413,
 * whether the client declared its length or sent it chunked:
 *
 * - declared above the cap: refused before anything is forwarded;
 * - chunked (or lying): the bytes are counted as they stream to the service; past the cap the
 *   upstream request is destroyed (the service never sees a complete request) and the gateway
 *   answers 413 itself. The proxy's error handler then stays silent for that request
 *   (`wasRefusedForSize`), so nothing is sent twice.
 *
 * Before the 413 goes out, what is left of the client's body is read and dropped (at most
 * DRAIN_MAX_BYTES, DRAIN_MAX_MS): answering `Connection: close` while the client is still
 * sending makes the kernel reset the connection, and the client may lose the answer. A client
 * past those bounds, or declaring a length above DRAIN_MAX_BYTES, gets the 413 at once and a
 * closed connection.
 */
export const DRAIN_MAX_BYTES = 16 * 1024 * 1024;
export const DRAIN_MAX_MS = 5_000;

const refusedForSize = new WeakSet<object>();
const upstreamAnswered = new WeakSet<object>();

/** True once the gateway has refused this request's body: no other answer may be sent. */
export const wasRefusedForSize = (request: object): boolean => refusedForSize.has(request);

/** Called when the service's answer arrives: from then on its answer stands, not a 413. */
export function markUpstreamAnswered(request: object): void {
  upstreamAnswered.add(request);
}

/** Drops the rest of the client's body (bounded), then answers 413 with `Connection: close`. */
export async function refuseBody(
  request: FastifyRequest,
  reply: FastifyReply,
  maxBytes: number,
): Promise<FastifyReply> {
  refusedForSize.add(request);
  // a declared length past what would be drained anyway: answer at once (a client that waits
  // for the answer before sending such a body gets it without waiting DRAIN_MAX_MS)
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared <= DRAIN_MAX_BYTES) await drain(request.raw);
  if (reply.sent || reply.raw.headersSent) return reply;
  return reply
    .code(413)
    .header('connection', 'close')
    .send({ error: 'payload_too_large', message: bodyTooLargeMessage(maxBytes) });
}

/**
 * The body as forwarded to the service: the client's stream, counted. Past `maxBytes` the
 * stream is destroyed (which destroys the upstream request) and the 413 is sent.
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
      if (over) return callback(); // the service already answered: the rest is dropped
      seen += chunk.length;
      if (seen <= maxBytes) return callback(null, chunk);
      over = true;
      callback();
      if (upstreamAnswered.has(request)) return;
      body.unpipe(counted);
      counted.destroy(new BodyTooLargeError(maxBytes));
      void refuseBody(request, reply, maxBytes);
    },
  });
  body.pipe(counted);
  // the client went away mid-body: abandon the upstream request too
  body.once('error', (err) => counted.destroy(err));
  body.once('close', () => {
    if (!body.readableEnded && !over) counted.destroy(new Error('client closed the request'));
  });
  // the upstream request failed mid-body: drop the rest of the client's body, so the
  // connection is not reset under the answer the proxy sends
  counted.once('close', () => {
    if (!over && !body.readableEnded) void drain(body as IncomingMessage);
  });
  return counted;
}

export class BodyTooLargeError extends Error {
  readonly code = 'WAYFARER_BODY_TOO_LARGE';
  constructor(maxBytes: number) {
    super(`request body above the route's cap of ${maxBytes} bytes`);
  }
}

function drain(raw: IncomingMessage): Promise<void> {
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let bytes = 0;
    const done = () => {
      clearTimeout(timer);
      raw.off('data', onData);
      raw.off('end', done);
      raw.off('close', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > DRAIN_MAX_BYTES) done();
    };
    const timer = setTimeout(done, DRAIN_MAX_MS);
    raw.on('data', onData);
    raw.once('end', done);
    raw.once('close', done);
    raw.resume();
  });
}
