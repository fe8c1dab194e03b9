import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Pool, type Dispatcher } from 'undici';
import { upstreamConnector } from './upstream-socket';

/**
 * The gateway's own forwarder for requests without a body (GET and HEAD): the hot path of the
 * API. `@fastify/reply-from` forwards the rest (bodies: caps, early answers).
 *
 * What reply-from did per GET that the gateway does not need: parse and build the upstream URL
 * (three `new URL`s, the query string parsed and written again), copy the headers twice, wrap
 * undici's answer in a stream and pipe it to the client, and look for retries. Here the
 * canonical path (`paths.ts`) goes upstream as it is, the headers are built once, and undici's
 * answer arrives through a handler of its own (`dispatch`, no stream): an answer of at most
 * BUFFERED_ANSWER_MAX_BYTES declared is kept and sent in one write through `reply.send` (the
 * onSend hooks see a Buffer: compression applies its threshold itself); a larger one, or one of
 * unknown length, streams with undici's own backpressure (a photo, a big list).
 */

/** Largest declared answer kept in memory and sent at once; larger ones stream. */
export const BUFFERED_ANSWER_MAX_BYTES = 64 * 1024;

/** Headers of one connection, never forwarded (RFC 9110 7.6.1), either way. */
const HOP_BY_HOP: ReadonlySet<string> = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

/** The headers named by a Connection header (also hop-by-hop), lower-cased. */
function connectionListed(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const text = Array.isArray(value) ? value.join(',') : value;
  const names: string[] = [];
  for (const part of text.split(',')) {
    const name = part.trim().toLowerCase();
    if (name && name !== 'close' && name !== 'keep-alive') names.push(name);
  }
  return names;
}

/**
 * The request headers as they go upstream: hop-by-hop headers (and those the client's
 * Connection names) dropped; undici sets Host from the service's address.
 */
export function withoutHopByHop(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[] | undefined> {
  const listed = connectionListed(headers.connection);
  for (const name of HOP_BY_HOP) if (name in headers) headers[name] = undefined;
  for (const name of listed) headers[name] = undefined;
  return headers;
}

/** An upstream failure, as undici reports it (its `code` tells a timeout from a refusal). */
export type UpstreamFailure = Error & { code?: string; cause?: unknown };

export interface ForwardHooks {
  /** Called as the service's response headers arrive (timing, `markUpstreamAnswered`). */
  answered(request: FastifyRequest): void;
  /** Answers the client for a failed upstream request (502/503/504, or nothing once sent). */
  failed(reply: FastifyReply, error: UpstreamFailure): void;
}

/** One service's connections and the forwarding of bodiless requests to it. */
export class Forwarder {
  readonly #pool: Pool;

  constructor(
    origin: string,
    private readonly timeoutMs: number,
    private readonly hooks: ForwardHooks,
  ) {
    // as reply-from's defaults: up to 128 connections, one request at a time on each (no
    // pipelining: a slow answer never holds up the next request on its connection)
    this.#pool = new Pool(origin, {
      connections: 128,
      pipelining: 1,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: upstreamConnector(),
    });
  }

  /** Sends the request upstream with `headers` (already the forwarded ones) and answers. */
  forward(
    request: FastifyRequest,
    reply: FastifyReply,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.dispatch(request.url, request.method, headers, this.answerFor(request, reply));
  }

  /** Sends a bodiless request upstream, its answer to `handler` (the hot path's, `hot-path.ts`). */
  dispatch(
    path: string,
    method: string,
    headers: Record<string, string | string[] | undefined>,
    handler: Dispatcher.DispatchHandler,
  ): void {
    this.#pool.dispatch(
      { path, method: method as Dispatcher.HttpMethod, headers, body: null },
      handler,
    );
  }

  /** The handler that answers `reply` with the service's answer (what `forward` dispatches). */
  answerFor(request: FastifyRequest, reply: FastifyReply): Dispatcher.DispatchHandler {
    return new Answer(request, reply, this.hooks);
  }

  close(): Promise<void> {
    return this.#pool.close();
  }
}

/**
 * A service's answer headers as they go to the client (lower-case names, repeated ones as a
 * list): hop-by-hop headers, and those its Connection header names, dropped.
 */
export function answerHeaders(rawHeaders: Buffer[]): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  let connection: string | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toString('latin1').toLowerCase();
    const value = rawHeaders[i + 1]!.toString('latin1');
    if (name === 'connection') connection = value;
    if (HOP_BY_HOP.has(name)) continue;
    const kept = headers[name];
    if (kept === undefined) headers[name] = value;
    else if (Array.isArray(kept)) kept.push(value);
    else headers[name] = [kept, value];
  }
  if (connection !== undefined) {
    for (const name of connectionListed(connection)) delete headers[name];
  }
  return headers;
}

/** Status codes whose answers have no body. */
const BODILESS_STATUS = (status: number) => status === 204 || status === 304 || status < 200;

/**
 * undici's handler for one forwarded request (its `Dispatcher.DispatchHandler` callbacks, which
 * its client calls as they are, without an adapter): the service's answer to the client.
 */
class Answer implements Dispatcher.DispatchHandler {
  #abort: ((err?: Error) => void) | null = null;
  #status = 0;
  #headers: Record<string, string | string[]> | null = null;
  #chunks: Buffer[] = [];
  #stream: Readable | null = null;
  #done = false;

  constructor(
    private readonly request: FastifyRequest,
    private readonly reply: FastifyReply,
    private readonly hooks: ForwardHooks,
  ) {}

  onConnect(abort: (err?: Error) => void): void {
    this.#abort = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void): boolean {
    this.hooks.answered(this.request);
    const headers = answerHeaders(rawHeaders);
    this.#status = status;
    this.#headers = headers;
    if (this.#clientGone()) {
      this.#abort?.();
      return false;
    }
    const declared = Number(headers['content-length'] ?? NaN);
    const small =
      this.request.method === 'HEAD' ||
      BODILESS_STATUS(status) ||
      (declared >= 0 && declared <= BUFFERED_ANSWER_MAX_BYTES);
    if (!small) {
      // streamed: undici waits for the client to take each chunk (onData's false, resume)
      const stream = new Readable({ read: () => resume() });
      stream.once('close', () => {
        if (!this.#done) this.#abort?.();
      });
      this.#stream = stream;
      this.#send(stream);
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#stream) return this.#stream.push(chunk);
    this.#chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    this.#done = true;
    if (this.#stream) {
      this.#stream.push(null);
      return;
    }
    if (this.#clientGone()) return;
    const chunks = this.#chunks;
    this.#send(
      chunks.length === 0 ? undefined : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
    );
  }

  onError(error: Error): void {
    this.#done = true;
    if (this.#stream) {
      this.#stream.destroy(error);
      return;
    }
    if (this.#clientGone()) return;
    this.hooks.failed(this.reply, error as UpstreamFailure);
  }

  #clientGone(): boolean {
    return this.request.raw.aborted || this.reply.raw.destroyed;
  }

  #send(payload: Buffer | Readable | undefined): void {
    const reply = this.reply;
    try {
      reply.code(this.#status).headers(this.#headers!);
    } catch (err) {
      // a status or header value Node refuses to write: the service answered badly
      this.hooks.failed(reply, err as UpstreamFailure);
      return;
    }
    // a HEAD answer keeps the service's Content-Length (Fastify leaves it as set for HEAD)
    reply.send(payload);
  }
}
