import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Dispatcher } from 'undici';
import {
  httpRequestRecorder,
  requestIdFrom,
  tagRequestSpan,
  type IdentityProofMinter,
  type LineFields,
} from '@wayfarer/service-kit';
import { addAnswerHeaders } from './answer-headers';
import { COMPRESSION_THRESHOLD_BYTES } from './compression';
import {
  answerHeaders,
  BUFFERED_ANSWER_MAX_BYTES,
  withoutHopByHop,
  type Forwarder,
} from './forward';
import { normaliseRequestUrl } from './paths';
import { markHandedOver, type UpstreamTiming } from './hand-over';
import { forwardedHeadersOf } from './proxy';
import type { ProxyRoute, RateLimitKind, ServiceName } from './routes';
import { liveSessionOf, type SessionChecker, type VerifiedSession } from './session';

/**
 * The gateway's hot path: the commonest request, a GET of a proxied `/api` route
 * with a valid session cookie, forwarded before Fastify sees it, doing exactly what the Fastify
 * path does for it (the same answer, headers and body; `hot-path.test.ts` sends the same
 * requests through both and compares). Fastify's routing, hooks, request and reply objects
 * were most of the gateway's CPU per request beside a bare `node:http` + undici proxy.
 *
 * Taken only when every step before forwarding is decided at once, without a side effect that
 * Fastify would repeat: the path canonical (`paths.ts`) and under a proxied prefix with no
 * other prefix below it (chat's are left to Fastify: its instance choice and replay), no body
 * (no Content-Length, Transfer-Encoding or Content-Encoding), no upgrade, the client address
 * known as Fastify would find it (`clientIpOf`), the session verified by the
 * cached verifier and not revoked in the live revocation copy, and the rate limit admitting it
 * locally (`SharedRateLimiter.admitsLocally`). Anything else (no or a bad session, a limit to
 * ask Redis about or refuse, HEAD, bodies, websockets, the frontend, share pages) goes to
 * Fastify as it came.
 *
 * The answer: a 2xx (not 204 or 206) with its declared length (at most
 * BUFFERED_ANSWER_MAX_BYTES), a Content-Type, and either below the compression threshold or a
 * client that accepts no encoding, is written here: the gateway's headers on it
 * (`answer-headers.ts`, x-request-id), its request metric (the labels Fastify's would have:
 * the proxy prefix and the service) and its access-log line. Every other answer (an error, a
 * larger, streamed or compressible one, a failed upstream) is handed over: the request goes to
 * Fastify marked as forwarded (`handedOverOf`), which skips the rate limit and the session
 * check (done here), and the service's answer, as far as it has arrived and then live, is
 * replayed into the forwarder's own handler for Fastify's reply (`forward.ts`): Fastify
 * answers it as it answers any request.
 */

export interface HotPathDeps {
  routes: readonly ProxyRoute[];
  /** The proxies in front that are trusted (TRUST_PROXY, as Fastify's `trustProxy` takes it). */
  trustProxy: boolean | string | ((address: string, hop: number) => boolean);
  sessions: SessionChecker;
  /** The rate limit's local admission of a request of this kind from this address. */
  admits(kind: RateLimitKind | undefined, ip: string): boolean;
  forwarderOf(service: ServiceName): Forwarder;
  proofs: IdentityProofMinter;
  accessLog(fields: LineFields): void;
  csp: string;
}

/** Takes the request (true) or leaves it to Fastify (false, nothing done). */
export type HotPath = (
  req: IncomingMessage,
  res: ServerResponse,
  fastify: (req: IncomingMessage, res: ServerResponse) => void,
) => boolean;

const round = (ms: number) => Math.round(ms * 10) / 10;
const setPlainHeader = (
  headers: Record<string, string | string[]>,
  name: string,
  value: string,
) => {
  headers[name] = value;
};

/** What one request the hot path took carries to its answer. */
interface HotCall {
  req: IncomingMessage;
  res: ServerResponse;
  fastify: (req: IncomingMessage, res: ServerResponse) => void;
  id: string;
  path: string;
  route: ProxyRoute;
  session: VerifiedSession;
  startedAt: number;
  timing: UpstreamTiming;
}

export function createHotPath(deps: HotPathDeps): HotPath {
  // a prefix with another below it (`/api/trips` and `/api/trips/x`) is left to Fastify's
  // router, and so are chat's and the public routes (no session to forward)
  const eligible = new Set(
    deps.routes.filter(
      (route) =>
        route.service !== 'chat' &&
        route.access !== 'public' &&
        !deps.routes.some((other) => other.prefix.startsWith(`${route.prefix}/`)),
    ),
  );
  /** The route of `path` when it is one of the eligible ones (`routeFor`'s first match). */
  const routeOf = (path: string): ProxyRoute | undefined => {
    for (const route of deps.routes) {
      const { prefix } = route;
      if (!path.startsWith(prefix)) continue;
      // the prefix itself or below it; `prefix/` alone is a route pattern of its own
      if (
        path.length === prefix.length ||
        (path[prefix.length] === '/' && path.length > prefix.length + 1)
      ) {
        return eligible.has(route) ? route : undefined;
      }
    }
    return undefined;
  };
  /**
   * The client address as Fastify's `request.ip` gives it (`@fastify/proxy-addr`: the socket's
   * address, or the X-Forwarded-For entry a trusted proxy added), for the cases decided without
   * it: no trust, no header, or one address in it behind `true` or a hop count. Undefined for
   * the rest (a list of addresses to trust, several forwarded addresses): Fastify's.
   */
  const { trustProxy } = deps;
  const clientIpOf = (req: IncomingMessage): string | undefined => {
    const socketAddress = req.socket.remoteAddress;
    const forwardedFor = req.headers['x-forwarded-for'];
    if (trustProxy === false || forwardedFor === undefined) return socketAddress;
    if (socketAddress === undefined || typeof trustProxy === 'string') return undefined;
    if (typeof forwardedFor !== 'string' || forwardedFor.includes(',')) return undefined;
    const remote = forwardedFor.trim();
    if (remote === '') return socketAddress;
    return trustProxy === true || trustProxy(socketAddress, 0) ? remote : socketAddress;
  };
  // off only to measure what they cost, as createHttpApp's
  const record = process.env.WAYFARER_REQUEST_METRICS === 'off' ? null : httpRequestRecorder();

  const answered = (call: HotCall, status: number) => {
    const ms = performance.now() - call.startedAt;
    record?.('GET', call.route.prefix, status, ms / 1000, call.route.service);
    deps.accessLog({
      reqId: call.id,
      method: 'GET',
      path: call.path,
      status,
      upstream: call.route.service,
      upstreamMs: call.timing.ms,
      ms: round(ms),
    });
  };

  return (req, res, fastify) => {
    if (req.method !== 'GET') return false;
    const url = req.url;
    if (url === undefined || !url.startsWith('/api/')) return false;
    const headers = req.headers;
    const cookie = headers.cookie;
    if (
      cookie === undefined ||
      headers['content-length'] !== undefined ||
      headers['transfer-encoding'] !== undefined ||
      headers['content-encoding'] !== undefined ||
      headers.upgrade !== undefined
    ) {
      return false;
    }
    const startedAt = performance.now();
    const normalised = normaliseRequestUrl(url);
    if (!normalised.ok) return false;
    const target = normalised.url;
    const queryAt = target.indexOf('?');
    const path = queryAt === -1 ? target : target.slice(0, queryAt);
    if (path.includes('%')) return false;
    const route = routeOf(path);
    if (!route) return false;
    const session = liveSessionOf(cookie, deps.sessions);
    if (!session) return false;
    const ip = clientIpOf(req);
    if (ip === undefined || !deps.admits(route.rateLimit, ip)) return false;

    const id = requestIdFrom(req);
    tagRequestSpan(id);
    const timing: UpstreamTiming = { service: route.service, startedAt: performance.now() };
    const call: HotCall = { req, res, fastify, id, path, route, session, startedAt, timing };
    const forwarded = withoutHopByHop(
      forwardedHeadersOf(headers, { id, ip, method: 'GET', url: target }, session, deps.proofs),
    );
    deps
      .forwarderOf(route.service)
      .dispatch(target, 'GET', forwarded, new HotAnswer(call, deps.csp, answered));
    return true;
  };
}

/**
 * undici's handler of a hot-path request: writes the common answer itself, else hands the
 * request over to Fastify and replays the answer into the forwarder's handler for its reply.
 */
class HotAnswer implements Dispatcher.DispatchHandler {
  #abort: ((err?: Error) => void) | null = null;
  #status = 0;
  #rawHeaders: Buffer[] | null = null;
  #resume: (() => void) | null = null;
  #statusText = '';
  #headers: Record<string, string | string[]> | null = null;
  #declared = 0;
  #chunks: Buffer[] = [];
  #ended: { error?: Error } | null = null;
  #handedOver = false;
  #target: Dispatcher.DispatchHandler | null = null;

  constructor(
    private readonly call: HotCall,
    private readonly csp: string,
    private readonly answered: (call: HotCall, status: number) => void,
  ) {}

  onConnect(abort: (err?: Error) => void): void {
    this.#abort = abort;
  }

  onHeaders(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    const { timing } = this.call;
    this.#statusText = statusText;
    timing.ms = round(performance.now() - timing.startedAt);
    this.#status = status;
    this.#rawHeaders = rawHeaders;
    this.#resume = resume;
    if (status >= 200 && status < 300 && status !== 204 && status !== 206) {
      const headers = answerHeaders(rawHeaders);
      const declared = Number(headers['content-length']);
      if (
        declared > 0 &&
        declared <= BUFFERED_ANSWER_MAX_BYTES &&
        typeof headers['content-type'] === 'string' &&
        (declared < COMPRESSION_THRESHOLD_BYTES ||
          this.call.req.headers['accept-encoding'] === undefined)
      ) {
        this.#headers = headers;
        this.#declared = declared;
        return true;
      }
    }
    this.#handOver();
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#target) return this.#target.onData!(chunk);
    this.#chunks.push(chunk);
    return true;
  }

  onComplete(trailers: string[] | null): void {
    if (this.#target) return this.#target.onComplete!(trailers);
    this.#ended = {};
    if (!this.#handedOver) this.#answer();
  }

  onError(error: Error): void {
    if (this.#target) return this.#target.onError!(error);
    this.#ended = { error };
    if (!this.#handedOver) this.#handOver();
  }

  /** The common answer, written here as Fastify's reply would write it. */
  #answer(): void {
    const { req, res, id } = this.call;
    const chunks = this.#chunks;
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    const headers = this.#headers!;
    if (
      req.aborted ||
      res.destroyed ||
      body.length !== this.#declared ||
      headers['content-length'] !== String(body.length)
    ) {
      this.#handOver();
      return;
    }
    // Fastify's order: x-request-id (onRequest), the service's (it may repeat the id), ours
    const out: Record<string, string | string[]> = { 'x-request-id': id };
    for (const name in headers) out[name] = headers[name]!;
    addAnswerHeaders(out, setPlainHeader, {
      api: true,
      hasCacheControl: out['cache-control'] !== undefined,
      contentType: out['content-type'],
      csp: this.csp,
    });
    try {
      res.writeHead(this.#status, out);
    } catch {
      // a status or header value Node refuses to write: Fastify's path answers it (502)
      this.#handOver();
      return;
    }
    res.end(body);
    this.answered(this.call, this.#status);
  }

  /** Fastify answers: the request goes to it marked, the answer replayed once it attaches. */
  #handOver(): void {
    if (this.#handedOver) return;
    this.#handedOver = true;
    const { req, res, id, session, timing } = this.call;
    // Fastify's request id is the one sent upstream (requestIdFrom keeps a valid header)
    if (req.headers['x-request-id'] !== id) req.headers['x-request-id'] = id;
    markHandedOver(req, { session, timing, attach: (handler) => this.#attach(handler) });
    this.call.fastify(req, res);
  }

  #attach(target: Dispatcher.DispatchHandler): void {
    target.onConnect!(this.#abort ?? (() => undefined));
    if (this.#rawHeaders) {
      const resume = this.#resume ?? (() => undefined);
      target.onHeaders!(this.#status, this.#rawHeaders, resume, this.#statusText);
      for (const chunk of this.#chunks) target.onData!(chunk);
    }
    this.#chunks = [];
    const ended = this.#ended;
    if (ended === null) this.#target = target;
    else if (ended.error) target.onError!(ended.error);
    else target.onComplete!(null);
  }
}
