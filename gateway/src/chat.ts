import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WebSocket, WebSocketServer, type RawData } from 'ws';
import { proofPath, REQUEST_ID_HEADER, type IdentityProofMinter } from '@wayfarer/service-kit';
import { upstreamMessages } from './routes';
import { upstreamHeaders, verifySession, type SessionChecker } from './session';

/*
 * Chat's instances behind the gateway: which of them answer, the socket upgrades sent
 * only to one that does, and `GET /api/conversation` on any of them.
 */

/** How often each chat instance's `/readyz` is asked (when there are several). */
export const CHAT_PROBE_INTERVAL_MS = 1_000;
/** A probe not answered within this is a failed one. */
export const CHAT_PROBE_TIMEOUT_MS = 1_000;
/** An upstream WebSocket handshake not done within this fails over to the next instance. */
export const CHAT_CONNECT_TIMEOUT_MS = 2_000;
/**
 * Largest WebSocket message relayed either way: socket.io's `maxHttpBufferSize` default, which
 * chat keeps (a larger message would be refused there; here it is never buffered).
 */
export const CHAT_SOCKET_MAX_MESSAGE_BYTES = 1_000_000;

/**
 * What the gateway says to a client whose instance vanished, before closing its socket: a
 * socket.io DISCONNECT of the main namespace (engine.io message `4`, socket.io packet `1`), as
 * the instance itself says when it stops gracefully. The frontend reconnects at once after a
 * server disconnect (`frontend/src/chat/socket.ts`), where a mere dropped connection would make
 * socket.io wait 0.5 to 1.5 s before trying again.
 */
export const SOCKET_IO_SERVER_DISCONNECT = '41';

/** The socket.io path chat serves (its default): WebSocket upgrades only. */
export const CHAT_SOCKET_PREFIX = '/socket.io';

/**
 * The chat instances and which of them answer. With more than one, each one's `/readyz` is asked
 * every CHAT_PROBE_INTERVAL_MS; one that fails its probe, or refuses a connection, is passed over
 * until a probe succeeds again. When none is believed up, all are tried anyway (a probe may lag
 * behind a restart).
 */
export class ChatInstances {
  private readonly up: boolean[];
  private next = 0;
  private readonly timer: NodeJS.Timeout | null = null;
  private probing = false;

  constructor(
    readonly urls: readonly string[],
    private readonly log: FastifyBaseLogger,
  ) {
    if (urls.length === 0) throw new Error('no chat instance');
    this.up = urls.map(() => true);
    if (urls.length > 1) {
      this.timer = setInterval(() => void this.probeAll(), CHAT_PROBE_INTERVAL_MS);
      this.timer.unref();
    }
  }

  /** The next instance in turn that is up (round-robin); the next in turn when none is. */
  pick(): string {
    const n = this.urls.length;
    for (let i = 0; i < n; i++) {
      const at = (this.next + i) % n;
      if (this.up[at]) {
        this.next = at + 1;
        return this.urls[at]!;
      }
    }
    return this.urls[this.next++ % n]!;
  }

  /** Every instance in the order to try them: those up from the next in turn, then the others. */
  candidates(): string[] {
    const first = this.pick();
    const start = this.urls.indexOf(first);
    const rotated = this.urls.map((_, i) => this.urls[(start + i) % this.urls.length]!);
    return [...rotated.filter((u) => this.isUp(u)), ...rotated.filter((u) => !this.isUp(u))];
  }

  isUp(url: string): boolean {
    return this.up[this.urls.indexOf(url)] === true;
  }

  /** A connection to `url` failed: pass it over until its probe succeeds again. */
  markDown(url: string, reason: string): void {
    const at = this.urls.indexOf(url);
    if (at < 0 || this.urls.length === 1 || !this.up[at]) return;
    this.up[at] = false;
    this.log.warn({ upstream: 'chat', instance: url, reason }, 'chat instance down');
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private async probeAll(): Promise<void> {
    if (this.probing) return;
    this.probing = true;
    try {
      await Promise.all(this.urls.map((url, at) => this.probe(url, at)));
    } finally {
      this.probing = false;
    }
  }

  private async probe(url: string, at: number): Promise<void> {
    const failure = await fetch(new URL('/readyz', url), {
      signal: AbortSignal.timeout(CHAT_PROBE_TIMEOUT_MS),
    }).then(
      async (res) => {
        await res.body?.cancel();
        return res.ok ? null : `readyz ${res.status}`;
      },
      (err: Error) => err.message,
    );
    if (failure !== null) return this.markDown(url, failure);
    if (this.up[at]) return;
    this.up[at] = true;
    this.log.info({ upstream: 'chat', instance: url }, 'chat instance up');
  }
}

/** The result of trying to open the upstream end of one client's socket. */
type Upstream =
  | { kind: 'open'; socket: WebSocket }
  /** The instance answered the upgrade with a 4xx: that is the answer to the client. */
  | { kind: 'refused'; status: number; response: IncomingMessage }
  /** No instance could be reached (or each answered 5xx). */
  | { kind: 'unavailable' }
  /** The client went away meanwhile. */
  | { kind: 'gone' };

interface PendingUpgrade {
  socket: Duplex;
  head: Buffer;
}

/**
 * Chat's socket at `/socket.io/`: a WebSocket upgrade needs a valid, unrevoked session (401
 * otherwise) and, from a browser, our own Origin (403: no cross-site WebSocket hijacking with the
 * cookie). The gateway opens the upstream end first, on the next instance that is up (with the
 * identity headers and a proof bound to `GET /socket.io/`, the client's cookies not forwarded),
 * falling over to the next one when the connection fails or the instance answers 5xx, and only
 * then accepts the client's upgrade: a client is never accepted onto a dead instance (socket.io
 * would then wait out its 20 s connect timeout before retrying). No instance reachable: 503 to
 * the upgrade, which socket.io retries with its backoff. With the websocket transport a
 * connection is that one upgrade, so no sticky routing is needed.
 */
export function registerChatSocket(
  app: FastifyInstance,
  chat: ChatInstances,
  sessions: SessionChecker,
  proofs: IdentityProofMinter,
  ownOrigin: (request: FastifyRequest) => string | null,
): void {
  const pending = new WeakMap<IncomingMessage, PendingUpgrade>();
  const upstreamProtocol = new WeakMap<IncomingMessage, string>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: CHAT_SOCKET_MAX_MESSAGE_BYTES,
    // the subprotocol the instance chose (socket.io uses none)
    handleProtocols: (_offered, request) => upstreamProtocol.get(request) || false,
  });
  const links = new Set<{ client: WebSocket; upstream: WebSocket }>();

  // Every upgrade goes through Fastify's routing (path normalisation, the onRequest checks,
  // 404 for other paths); an answer other than 101 ends the connection.
  app.server.on('upgrade', (raw: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Node leaves an upgraded socket without an 'error' listener: a client that resets it
    // while its upgrade is checked must not take the process down
    socket.on('error', (err) => app.log.debug({ err: err.message }, 'chat socket: client error'));
    pending.set(raw, { socket, head });
    const res = new ServerResponse(raw);
    res.assignSocket(socket as never);
    res.on('finish', () => socket.destroy());
    app.routing(raw, res);
  });

  // Upgraded connections are not the HTTP server's to wait for: closed before it closes.
  app.addHook('preClose', (done) => {
    for (const { client, upstream } of links) {
      client.terminate();
      upstream.terminate();
    }
    wss.close(() => done());
  });

  const connectUpstream = async (request: FastifyRequest, client: Duplex): Promise<Upstream> => {
    const path = request.url; // the normalised path and its query, forwarded as they are
    const headers = upstreamHeaders(
      {},
      {
        session: request.session,
        clientIp: request.ip,
        method: 'GET',
        path: proofPath(path),
      },
      proofs,
      { [REQUEST_ID_HEADER]: request.id, 'x-forwarded-for': request.ip },
    ) as Record<string, string>;
    const offered = protocolsOf(request.headers['sec-websocket-protocol']);
    for (const instance of chat.candidates()) {
      if (client.destroyed) return { kind: 'gone' };
      const target = new URL(path, instance);
      target.protocol = target.protocol === 'https:' ? 'wss:' : 'ws:';
      const result = await openUpstream(target, offered, headers, client);
      if (result.kind !== 'failed') {
        if (result.kind === 'open' && result.socket.protocol) {
          upstreamProtocol.set(request.raw, result.socket.protocol);
        }
        return result;
      }
      chat.markDown(instance, result.reason);
      request.log.warn(
        { upstream: 'chat', instance, reason: result.reason },
        'chat upgrade failed',
      );
    }
    return { kind: 'unavailable' };
  };

  const upgrade = async (request: FastifyRequest, reply: FastifyReply) => {
    const waiting = pending.get(request.raw);
    if (!waiting) {
      return reply.code(400).send({
        error: 'bad_request',
        message: 'The chat socket takes WebSocket upgrades only (transport=websocket).',
      });
    }
    const upstream = await connectUpstream(request, waiting.socket);
    if (upstream.kind === 'gone') return reply.hijack();
    if (upstream.kind === 'unavailable') {
      return reply
        .code(503)
        .header('retry-after', '5')
        .send({ error: 'service_unavailable', message: upstreamMessages.unavailable('chat') });
    }
    if (upstream.kind === 'refused') {
      const type = upstream.response.headers['content-type'];
      if (type) reply.header('content-type', type);
      return reply.code(upstream.status).send(upstream.response);
    }
    reply.hijack();
    const socket = upstream.socket;
    let accepted = false;
    // (synchronous: no verifyClient)
    wss.handleUpgrade(request.raw, waiting.socket, waiting.head, (client) => {
      accepted = true;
      const link = { client, upstream: socket };
      links.add(link);
      relay(link, request.log, () => links.delete(link));
    });
    // refused by ws itself (a malformed handshake: it answered 400) or the client is gone
    if (!accepted) socket.terminate();
  };

  const preHandler = async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== ownOrigin(request)) {
      return reply
        .code(403)
        .send({ error: 'forbidden', message: 'Cross-origin requests are not allowed.' });
    }
    request.session = await verifySession(request, sessions, 'refuse');
    if (!request.session) {
      return reply.code(401).send({ error: 'unauthorized', message: 'You need to be signed in.' });
    }
  };
  app.get(`${CHAT_SOCKET_PREFIX}/*`, { preHandler }, upgrade);
}

type Attempt = Exclude<Upstream, { kind: 'unavailable' }> | { kind: 'failed'; reason: string };

/** Opens one upstream WebSocket: open, refused (4xx), failed (no connection, timeout, 5xx). */
function openUpstream(
  target: URL,
  protocols: string[],
  headers: Record<string, string>,
  client: Duplex,
): Promise<Attempt> {
  return new Promise((resolve) => {
    const socket = new WebSocket(target, protocols, {
      headers,
      handshakeTimeout: CHAT_CONNECT_TIMEOUT_MS,
      maxPayload: CHAT_SOCKET_MAX_MESSAGE_BYTES,
      perMessageDeflate: false,
    });
    let settled = false;
    const settle = (attempt: Attempt) => {
      if (settled) return;
      settled = true;
      client.off('close', onClientGone);
      resolve(attempt);
    };
    const onClientGone = () => {
      socket.terminate();
      settle({ kind: 'gone' });
    };
    client.once('close', onClientGone);
    socket.on('error', (err) => settle({ kind: 'failed', reason: err.message }));
    socket.once('open', () => {
      // held until the client's end is accepted and linked (`relay`): socket.io's first packet
      // comes at once, and a message with no listener yet would be lost
      socket.pause();
      settle({ kind: 'open', socket });
    });
    socket.once('unexpected-response', (_req, response) => {
      const status = response.statusCode ?? 502;
      if (status >= 500) {
        response.resume();
        socket.terminate();
        settle({ kind: 'failed', reason: `answered ${status}` });
      } else {
        settle({ kind: 'refused', status, response });
      }
    });
  });
}

/** WebSocket close codes that may be sent on (1005 and 1006 are only ever received). */
const sendable = (code: number) =>
  (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code < 5000);

/**
 * Relays messages both ways between the client's socket and the instance's. Either side closing
 * closes the other with its code. The instance vanishing (1006: it was killed, or its connection
 * failed) gets the client a socket.io server disconnect (SOCKET_IO_SERVER_DISCONNECT) and a
 * close with 1012 "service restart": the client reconnects at once through the gateway, to an
 * instance that is up. Each hop answers its own pings.
 */
function relay(
  link: { client: WebSocket; upstream: WebSocket },
  log: FastifyBaseLogger,
  onClosed: () => void,
): void {
  const { client, upstream } = link;
  const forward = (to: WebSocket) => (data: RawData, isBinary: boolean) => {
    if (to.readyState === WebSocket.OPEN) to.send(data, { binary: isBinary });
  };
  client.on('message', forward(upstream));
  upstream.on('message', forward(client));
  let closed = false;
  const closeOther = (other: WebSocket, code: number, reason: Buffer) => {
    if (!closed) {
      closed = true;
      onClosed();
    }
    if (other.readyState !== WebSocket.OPEN) return;
    if (sendable(code)) other.close(code, reason);
    else if (code === 1006) instanceGone();
    else other.close(1000);
  };
  const instanceGone = () => {
    if (client.readyState !== WebSocket.OPEN) return;
    client.send(SOCKET_IO_SERVER_DISCONNECT);
    client.close(1012, 'chat instance gone');
  };
  client.on('close', (code, reason) => closeOther(upstream, code, reason));
  upstream.on('close', (code, reason) => closeOther(client, code, reason));
  client.on('error', (err) => {
    log.debug({ err: err.message }, 'chat socket: client error');
    upstream.terminate();
  });
  upstream.on('error', (err) => {
    log.warn({ upstream: 'chat', err: err.message }, 'chat socket: instance error');
    instanceGone();
  });
  upstream.resume();
}

const protocolsOf = (header: string | undefined): string[] =>
  header
    ? header
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)
    : [];
