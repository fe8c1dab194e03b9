import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import proxy, { type FastifyHttpProxyOptions } from '@fastify/http-proxy';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  inTrace,
  notSampledTraceparent,
  proofPath,
  REQUEST_ID_HEADER,
  tracingActive,
  type IdentityProofMinter,
} from '@wayfarer/service-kit';
import {
  countBody,
  dropRestOfBody,
  markUpstreamAnswered,
  refuseBody,
  wasRefusedForSize,
} from './body-limit';
import type { ChatInstances } from './chat';
import { Forwarder, withoutHopByHop, type UpstreamFailure } from './forward';
import { maxBodyBytesFor, PROXY_ROUTES, upstreamMessages, type ServiceName } from './routes';
import {
  checkSession,
  upstreamHeaders,
  type SessionChecker,
  type VerifiedSession,
} from './session';
import { handedOverOf, type UpstreamTiming } from './hand-over';
import { upstreamConnector } from './upstream-socket';

type ProxyHandler = NonNullable<FastifyHttpProxyOptions['handler']>;
type HookDone = (err?: Error) => void;

/** Which service a request went to, and how long it took to answer (its response headers). */
const timings = new WeakMap<object, UpstreamTiming>();

/** The upstream timing of a proxied request (undefined when nothing was sent upstream). */
export const upstreamTimingOf = (request: FastifyRequest): UpstreamTiming | undefined =>
  timings.get(request);

const UNAVAILABLE_CODES = new Set([
  'FST_REPLY_FROM_SERVICE_UNAVAILABLE',
  'FST_REPLY_FROM_CONNECT_TIMEOUT',
  'ECONNREFUSED',
  // undici's own (the gateway's forwarder, `forward.ts`)
  'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES = new Set([
  'FST_REPLY_FROM_GATEWAY_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** The part of a reply the error handler uses (reply-from types it for http1 and http2). */
interface ErrorReply {
  request: { log: FastifyBaseLogger };
  raw: { headersSent: boolean };
  code(status: number): this;
  header(name: string, value: string): this;
  send(body: unknown): unknown;
}

/** 504 for a timeout, 503 when the service cannot be reached, 502 for anything else. */
function statusOfUpstreamError(error: UpstreamFailure): number {
  const code = error.code ?? '';
  if (TIMEOUT_CODES.has(code)) return 504;
  const causeCode = (error.cause as { code?: string } | undefined)?.code ?? '';
  if (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_CODES.has(causeCode)) return 503;
  return /ECONNREFUSED/.test(error.message) ? 503 : 502;
}

function upstreamError(service: ServiceName) {
  return (reply: ErrorReply, { error }: { error: UpstreamFailure }) => {
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
    const status = statusOfUpstreamError(error);
    const message =
      status === 504
        ? upstreamMessages.timeout(service)
        : status === 503
          ? upstreamMessages.unavailable(service)
          : upstreamMessages.badGateway(service);
    const code = error.code ?? '';
    const causeCode = (error.cause as { code?: string } | undefined)?.code;
    reply.request.log.warn({ upstream: service, code, causeCode, status }, 'upstream error');
    void reply
      .code(status)
      .header('retry-after', '5')
      .send({ error: status === 503 ? 'service_unavailable' : 'bad_gateway', message });
  };
}

/** The request as the gateway forwards it (a Fastify request, or the hot path's). */
export interface ForwardedFrom {
  id: string;
  /** The client address (the TRUST_PROXY rules). */
  ip: string;
  method: string;
  /** The canonical path and query (`paths.ts`), sent upstream as it is. */
  url: string;
}

/**
 * The headers a request goes upstream with: its own (no identity headers of the client's),
 * the verified identity and an identity proof binding it to the method and path, the request
 * id and the client address.
 *
 * With tracing on, the trace context is the gateway's, never the client's as it came: inside
 * the request's trace the undici (or http) instrumentation adds the call's own `traceparent`
 * (the client's would go as a second header); a request the door did not trace
 * (service-kit's `sampling.ts`) goes with a fresh not-sampled one (flag 00), so the services
 * behind skip it at their door too, rather than each tracing its own 10%. With tracing off the
 * client's headers go as they came.
 */
export function forwardedHeadersOf(
  headers: Record<string, string | string[] | undefined>,
  from: ForwardedFrom,
  session: VerifiedSession | null,
  proofs: IdentityProofMinter,
): Record<string, string | string[] | undefined> {
  const out = upstreamHeaders(
    headers,
    { session, clientIp: from.ip, method: from.method, path: proofPath(from.url) },
    proofs,
    { [REQUEST_ID_HEADER]: from.id, 'x-forwarded-for': from.ip },
  );
  if (tracingActive()) {
    if (out.tracestate !== undefined) delete out.tracestate;
    if (!inTrace()) out.traceparent = notSampledTraceparent();
    else if (out.traceparent !== undefined) delete out.traceparent;
  }
  return out;
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
  chat: ChatInstances,
): Promise<(service: ServiceName) => Forwarder> {
  // Every forwarded request carries a proof, public routes too (user empty, client address
  // set: auth's login throttle keys on it). Bound to the path forwarded, which is the
  // request's own (each prefix is rewritten to itself). Chat's WebSocket upgrades get the same
  // headers (`chat.ts`). Called as the request goes upstream: the start of its upstream time.
  const forwardedHeaders = (
    service: ServiceName,
    request: FastifyRequest,
    headers: Record<string, string | string[] | undefined>,
  ) => {
    timings.set(request, { service, startedAt: performance.now() });
    return forwardedHeadersOf(headers, request, request.session, proofs);
  };
  const answered = (request: FastifyRequest) => {
    markUpstreamAnswered(request);
    const timing = timings.get(request);
    if (timing) timing.ms = Math.round((performance.now() - timing.startedAt) * 10) / 10;
  };
  // GET and HEAD (no body) through the gateway's own forwarder, one per service (`forward.ts`)
  const forwarders = new Map<ServiceName, Forwarder>();
  const forwarderOf = (service: ServiceName) => {
    let forwarder = forwarders.get(service);
    if (!forwarder) {
      const failed = upstreamError(service);
      forwarder = new Forwarder(upstreams[service], timeoutMs, {
        answered,
        failed: (reply, error) => failed(reply, { error }),
      });
      forwarders.set(service, forwarder);
    }
    return forwarder;
  };
  app.addHook('onClose', async () => {
    await Promise.all([...forwarders.values()].map((f) => f.close()));
  });

  for (const route of PROXY_ROUTES) {
    // chat: any instance that is up, chosen per request (the others: one address each)
    const onChat = route.service === 'chat';
    // Before forwarding: the body cap, the session, a chunked body counted. A callback hook:
    // no promise per request unless Redis must be asked about a revocation.
    const maxBytes = maxBodyBytesFor(route);
    // Redis down: 503 where a session is required; logout goes on the signature alone
    const whenStoreDown = route.access === 'optional' ? 'trust-signature' : 'refuse';
    const proceed = (
      request: FastifyRequest,
      reply: FastifyReply,
      done: HookDone,
      session: VerifiedSession | null,
    ) => {
      request.session = session;
      if (!session && route.access === 'required') {
        void reply.code(401).send({ error: 'unauthorized', message: 'You need to be signed in.' });
        return;
      }
      // chunked bodies have no declared length: count them as they stream
      if (request.body instanceof Readable) {
        request.body = countBody(request, reply, request.body, maxBytes);
      }
      done();
    };
    const checks = (request: FastifyRequest, reply: FastifyReply, done: HookDone) => {
      // forwarded by the hot path already, with the session it checked (`hot-path.ts`)
      const hot = handedOverOf(request.raw);
      if (hot) return proceed(request, reply, done, hot.session);
      if (Number(request.headers['content-length'] ?? 0) > maxBytes) {
        refuseBody(request, reply, maxBytes);
        return;
      }
      if (route.access === 'public') return proceed(request, reply, done, null);
      let session: ReturnType<typeof checkSession>;
      try {
        session = checkSession(request, sessions, whenStoreDown);
      } catch (err) {
        return done(err as Error);
      }
      if (session instanceof Promise) {
        session.then((s) => proceed(request, reply, done, s), done);
      } else {
        proceed(request, reply, done, session);
      }
    };
    if (!onChat) {
      const forwarder = forwarderOf(route.service);
      const handler = (request: FastifyRequest, reply: FastifyReply) => {
        const hot = handedOverOf(request.raw);
        if (hot) {
          // the service's answer, as far as it has come, answers this reply
          timings.set(request, hot.timing);
          hot.attach(forwarder.answerFor(request, reply));
          return;
        }
        const headers = forwardedHeaders(route.service, request, request.headers);
        forwarder.forward(request, reply, withoutHopByHop(headers));
      };
      await app.register(
        async (scope) => {
          for (const url of ['/', '/*']) {
            scope.route({ method: ['GET', 'HEAD'], url, preHandler: checks, handler });
          }
        },
        { prefix: route.prefix },
      );
    }
    await app.register(proxy, {
      upstream: onChat ? '' : upstreams[route.service],
      ...(onChat ? { handler: replayOnNextChatInstance(chat) } : {}),
      prefix: route.prefix,
      rewritePrefix: route.prefix,
      // the rest (bodies), and everything of chat's (its replay on the next instance)
      ...(onChat ? {} : { httpMethods: ['DELETE', 'PATCH', 'POST', 'PUT', 'OPTIONS'] }),
      // undici (reply-from's default client): about half the CPU per request of node:http's;
      // its connections read a service's early answer even when writing the body failed
      undici: {
        headersTimeout: route.timeoutMs ?? timeoutMs,
        bodyTimeout: route.timeoutMs ?? timeoutMs,
        connect: upstreamConnector(),
      },
      // its two info lines per request are replaced by the gateway's one access-log line
      disableRequestLogging: true,
      preHandler: (request, reply, done) =>
        checks(request as FastifyRequest, reply as FastifyReply, done),
      replyOptions: {
        rewriteRequestHeaders: (request, headers) =>
          forwardedHeaders(route.service, request as FastifyRequest, headers),
        rewriteHeaders: (headers, request) => {
          if (request) answered(request as FastifyRequest);
          // hop-by-hop: the service's connection to the gateway is not the client's (a client
          // asking `Connection: close` must get it, whatever the service's keep-alive said)
          delete headers.connection;
          delete headers['keep-alive'];
          return headers;
        },
        // The service answered before the client's whole body arrived (an early 4xx): its
        // answer goes out as it is, and the connection stays open while the rest of the body
        // is read and dropped, up to the route's cap (`body-limit.ts`), instead of the
        // `Connection: close` reply-from sets, under which the client, still sending, would be
        // reset and lose the answer.
        onResponse: (request, reply, res) => {
          if (!request.raw.complete) {
            // (reply-from types its hooks for HTTP/2 as well; the gateway serves HTTP/1)
            const res = reply.raw as ServerResponse;
            reply.removeHeader('connection');
            res.shouldKeepAlive = true;
            // a body still streaming upstream is dropped once undici lets go of it (countBody)
            if (!(request.body instanceof Readable)) {
              dropRestOfBody(request.raw as IncomingMessage, res, maxBodyBytesFor(route));
            }
          }
          reply.send(res.stream);
        },
        onError: upstreamError(route.service),
        // never replay a request on a 503 from a service: it answered, that is its answer
        retryDelay: () => null,
        ...(onChat ? { getUpstream: () => chat.pick() } : {}),
      },
    });
  }
  return forwarderOf;
}

/**
 * `/api/conversation` goes to the chat instance `ChatInstances.pick` chose for it (one that is
 * up). A GET whose instance refuses the connection (down since its last probe) goes once more,
 * to the next one: nothing reached the first, so sending it again is safe.
 */
function replayOnNextChatInstance(chat: ChatInstances): ProxyHandler {
  return (request, reply, dest, options) => {
    const first = options.getUpstream!(request, '');
    const onError = options.onError!;
    return reply.from(dest, {
      ...options,
      onError: (failed, failure) => {
        const replayable = request.method === 'GET' || request.method === 'HEAD';
        if (statusOfUpstreamError(failure.error) === 503 && replayable && !failed.raw.headersSent) {
          chat.markDown(first, failure.error.message);
          const next = chat.pick();
          if (next !== first) return void reply.from(dest, { ...options, getUpstream: () => next });
        }
        onError(failed, failure);
      },
    });
  };
}
