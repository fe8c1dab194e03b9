import { Readable } from 'node:stream';
import proxy from '@fastify/http-proxy';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { proofPath, REQUEST_ID_HEADER, type IdentityProofMinter } from '@wayfarer/service-kit';
import { countBody, markUpstreamAnswered, refuseBody, wasRefusedForSize } from './body-limit';
import { maxBodyBytesFor, PROXY_ROUTES, type ServiceName } from './routes';
import { upstreamHeaders, verifySession, type SessionChecker } from './session';

/** Which service a request went to, and how long it took to answer (its response headers). */
export interface UpstreamTiming {
  service: ServiceName;
  startedAt: number;
  /** Milliseconds from sending the request upstream to the service's response headers. */
  ms?: number;
}

const timings = new WeakMap<object, UpstreamTiming>();

/** The upstream timing of a proxied request (undefined when nothing was sent upstream). */
export const upstreamTimingOf = (request: FastifyRequest): UpstreamTiming | undefined =>
  timings.get(request);

const UNAVAILABLE_CODES = new Set([
  'FST_REPLY_FROM_SERVICE_UNAVAILABLE',
  'FST_REPLY_FROM_CONNECT_TIMEOUT',
  'ECONNREFUSED',
]);

/** The part of a reply the error handler uses (reply-from types it for http1 and http2). */
interface ErrorReply {
  request: { log: FastifyBaseLogger };
  raw: { headersSent: boolean };
  code(status: number): this;
  header(name: string, value: string): this;
  send(body: unknown): unknown;
}

function upstreamError(service: ServiceName) {
  return (reply: ErrorReply, { error }: { error: Error & { code?: string; cause?: unknown } }) => {
    // the gateway refused the body itself (its 413 is on its way), or the service's answer is
    // already being streamed: one answer per request, never a second one on top
    if (wasRefusedForSize(reply.request)) return;
    if (reply.raw.headersSent) {
      reply.request.log.warn(
        { upstream: service, err: error.message },
        'upstream failed mid-answer',
      );
      return;
    }
    const causeCode = (error.cause as { code?: string } | undefined)?.code;
    const code = error.code ?? '';
    let status = 502;
    let message = `The ${service} service answered badly. Please try again.`;
    if (code === 'FST_REPLY_FROM_GATEWAY_TIMEOUT') {
      status = 504;
      message = `The ${service} service took too long to answer. Please try again.`;
    } else if (
      UNAVAILABLE_CODES.has(code) ||
      UNAVAILABLE_CODES.has(causeCode ?? '') ||
      /ECONNREFUSED/.test(error.message)
    ) {
      status = 503;
      message = `The ${service} service is unavailable right now. Please try again shortly.`;
    }
    reply.request.log.warn({ upstream: service, code, causeCode, status }, 'upstream error');
    void reply
      .code(status)
      .header('retry-after', '5')
      .send({ error: status === 503 ? 'service_unavailable' : 'bad_gateway', message });
  };
}

/**
 * Registers one proxy per route of the table, each checking the session as the route asks and
 * signing what it forwards with an identity proof (`proofs`).
 */
export async function registerProxies(
  app: FastifyInstance,
  upstreams: Record<ServiceName, string>,
  sessions: SessionChecker,
  timeoutMs: number,
  proofs: IdentityProofMinter,
): Promise<void> {
  for (const route of PROXY_ROUTES) {
    await app.register(proxy, {
      upstream: upstreams[route.service],
      prefix: route.prefix,
      rewritePrefix: route.prefix,
      // undici (reply-from's default client): about half the CPU per request of node:http's
      undici: { headersTimeout: timeoutMs, bodyTimeout: timeoutMs },
      // its two info lines per request are replaced by the gateway's one access-log line
      disableRequestLogging: true,
      preHandler: async (request, reply) => {
        const maxBytes = maxBodyBytesFor(route);
        if (Number(request.headers['content-length'] ?? 0) > maxBytes) {
          return refuseBody(request, reply, maxBytes);
        }
        if (route.access !== 'public') {
          // Redis down: 503 where a session is required; logout goes on the signature alone
          const whenStoreDown = route.access === 'optional' ? 'trust-signature' : 'refuse';
          request.session = await verifySession(request, sessions, whenStoreDown);
          if (!request.session && route.access === 'required') {
            return reply
              .code(401)
              .send({ error: 'unauthorized', message: 'You need to be signed in.' });
          }
        }
        // chunked bodies have no declared length: count them as they stream
        if (request.body instanceof Readable) {
          request.body = countBody(request, reply, request.body, maxBytes);
        }
      },
      replyOptions: {
        // Every forwarded request carries a proof, public routes too (user empty, client
        // address set: auth's login throttle keys on it). Bound to the path forwarded, which
        // is the request's own (each prefix is rewritten to itself). Chat's WebSocket upgrades
        // get the same headers (`registerChatSocketProxy`).
        rewriteRequestHeaders: (request, headers) => {
          // called as the request goes upstream: the start of its upstream time
          timings.set(request, { service: route.service, startedAt: performance.now() });
          return upstreamHeaders(
            headers,
            {
              session: request.session,
              clientIp: request.ip,
              method: request.method,
              path: proofPath(request.url),
            },
            proofs,
            { [REQUEST_ID_HEADER]: request.id, 'x-forwarded-for': request.ip },
          );
        },
        rewriteHeaders: (headers, request) => {
          if (request) {
            markUpstreamAnswered(request);
            const timing = timings.get(request);
            if (timing) timing.ms = Math.round((performance.now() - timing.startedAt) * 10) / 10;
          }
          return headers;
        },
        onError: upstreamError(route.service),
        // never replay a request on a 503 from a service: it answered, that is its answer
        retryDelay: () => null,
      },
    });
  }
}

/** The socket.io path chat serves (its default), proxied for websocket upgrades only. */
export const CHAT_SOCKET_PREFIX = '/socket.io';

/**
 * Chat's socket: websocket upgrades under `/socket.io/` need a valid, unrevoked session (401
 * otherwise) and, from a browser, our own Origin (403: no cross-site WebSocket hijacking with the
 * cookie); each is sent to the next of `chatUrls` (round-robin per upgrade: with the websocket
 * transport a connection is that one upgrade, so no sticky routing is needed) with the identity
 * headers and a proof bound to `GET /socket.io/` (the path without its query). The client's
 * cookies are not forwarded.
 */
export async function registerChatSocketProxy(
  app: FastifyInstance,
  chatUrls: readonly string[],
  sessions: SessionChecker,
  proofs: IdentityProofMinter,
  ownOrigin: (request: FastifyRequest) => string | null,
): Promise<void> {
  let next = 0;
  // (reply-from's types omit `rewriteRequestHeaders`, which the websocket proxy calls with the
  // request: a variable, not a literal, so the option passes)
  const wsClientOptions = {
    headers: {},
    rewriteRequestHeaders: (_headers: unknown, request: FastifyRequest) =>
      upstreamHeaders(
        {},
        {
          session: request.session,
          clientIp: request.ip,
          method: 'GET',
          path: proofPath(request.url),
        },
        proofs,
        { [REQUEST_ID_HEADER]: request.id, 'x-forwarded-for': request.ip },
      ) as Record<string, string>,
  };
  await app.register(proxy, {
    upstream: '',
    prefix: CHAT_SOCKET_PREFIX,
    rewritePrefix: CHAT_SOCKET_PREFIX,
    websocket: true,
    disableRequestLogging: true,
    replyOptions: {
      getUpstream: () => chatUrls[next++ % chatUrls.length]!,
      onError: upstreamError('chat'),
      retryDelay: () => null,
    },
    preHandler: async (request, reply) => {
      const origin = request.headers.origin;
      if (origin !== undefined && origin !== ownOrigin(request)) {
        return reply
          .code(403)
          .send({ error: 'forbidden', message: 'Cross-origin requests are not allowed.' });
      }
      request.session = await verifySession(request, sessions, 'refuse');
      if (!request.session) {
        return reply
          .code(401)
          .send({ error: 'unauthorized', message: 'You need to be signed in.' });
      }
    },
    wsClientOptions,
  });
}
