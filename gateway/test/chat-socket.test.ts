import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect as tcpConnect, type AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { verifyIdentityProof } from '@wayfarer/service-kit';
import { TEST_IDENTITY_PROOF_SECRET, testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { SOCKET_IO_SERVER_DISCONNECT } from '../src/chat';
import { captureLogs, testSessions, testConfig } from './wire';

const secret = Buffer.from(TEST_IDENTITY_PROOF_SECRET);

interface StandInOptions {
  /** Answer every upgrade with this status instead of accepting it. */
  refuse?: number;
  /** Hold every upgrade until the returned release is called. */
  hold?: boolean;
}

/**
 * A real chat instance's stand-in on a port of its own: WebSocket upgrades (each connection is
 * greeted with the instance's name and has every message echoed back prefixed by it), `/readyz`
 * and `GET /api/conversation/...` (answered with its name). It can be stopped as a killed
 * process would be (connections cut, port closed) and started again on the same port.
 */
async function startInstance(name: string, options: StandInOptions = {}) {
  const upgrades: IncomingMessage[] = [];
  const held: (() => void)[] = [];
  const wss = new WebSocketServer({
    noServer: true,
    verifyClient: (_info, done) => {
      if (options.refuse) return done(false, options.refuse);
      if (options.hold) held.push(() => done(true));
      else done(true);
    },
  });
  wss.on('connection', (socket, request) => {
    upgrades.push(request);
    socket.send(name);
    socket.on('message', (data) => socket.send(`${name}:${String(data)}`));
  });
  let server: Server;
  const listen = async (port: number) => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ instance: name, url: req.url }));
    });
    server.on('upgrade', (req, socket, head) =>
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req)),
    );
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return (server.address() as AddressInfo).port;
  };
  const port = await listen(0);
  return {
    name,
    upgrades,
    url: `http://127.0.0.1:${port}`,
    /** Upgrades held (`hold`), and the sockets open. */
    held: () => held.length,
    connected: () => wss.clients.size,
    /** Lets the held upgrades through. */
    release: () => held.splice(0).forEach((go) => go()),
    /** As if the process were killed: every connection cut, the port closed. */
    stop: async () => {
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
    start: () => listen(port),
    close: async () => {
      for (const client of wss.clients) client.terminate();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(() => resolve(undefined)));
      wss.close();
    },
  };
}
type Instance = Awaited<ReturnType<typeof startInstance>>;

describe("gateway: chat's socket", () => {
  const sessions = testSessions();
  const cookie = (jti?: string) => sessions.cookie('user-1', jti);
  const cleanups: (() => Promise<unknown>)[] = [];

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** A gateway spreading chat over `instances`, listening on a port. */
  async function gatewayFor(instances: Instance[]) {
    const redis = new Redis(testInfra().redisUrl);
    const logs = captureLogs();
    const gateway: FastifyInstance = await buildApp({
      config: testConfig({
        CHAT_URL: instances[0]!.url,
        CHAT_URLS: instances.map((i) => i.url).join(','),
        // 127.0.0.1's /api count is shared in Redis with every stack on the machine
        RATE_LIMIT_PER_MINUTE: '1000000',
      }),
      redis,
      logger: logs.logger,
      publicKeyPem: sessions.publicKeyPem,
      identityProofSecret: secret,
    });
    const address = await gateway.listen({ port: 0, host: '127.0.0.1' });
    cleanups.push(async () => {
      await gateway.close();
      await redis.quit();
    });
    return { gateway, logs, http: address, ws: address.replace('http', 'ws') };
  }

  async function instances(...specs: [string, StandInOptions?][]) {
    const started = await Promise.all(specs.map(([name, o]) => startInstance(name, o)));
    cleanups.push(() => Promise.all(started.map((i) => i.close())));
    return started;
  }

  type Opened = { first: string; socket: WebSocket } | { status: number; body: string };

  /**
   * Opens a socket through the gateway: the instance's greeting once accepted, or the refusal
   * (status and body). A socket accepted and closed before any message fails the test.
   */
  const open = (base: string, headers: Record<string, string>) =>
    new Promise<Opened>((resolve, reject) => {
      const socket = new WebSocket(`${base}/socket.io/?EIO=4&transport=websocket`, { headers });
      cleanups.push(async () => socket.terminate());
      socket.once('message', (data) => resolve({ first: String(data), socket }));
      socket.once('unexpected-response', (_req, res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      socket.once('close', (code) => reject(new Error(`accepted, then closed (${code})`)));
      socket.once('error', () => undefined);
    });
  const greeting = (o: Opened) => ('first' in o ? o.first : o.status);

  it('spreads upgrades round-robin with a proof bound to GET /socket.io/, without the cookie, and relays both ways', async () => {
    const ups = await instances(['one'], ['two']);
    const { ws } = await gatewayFor(ups);
    const jti = randomUUID();
    const opened: Opened[] = [];
    for (let i = 0; i < 4; i += 1) opened.push(await open(ws, { cookie: cookie(jti) }));
    expect(opened.map(greeting).sort()).toEqual(['one', 'one', 'two', 'two']);
    const upgrade = ups[0]!.upgrades[0]!;
    expect(upgrade.url).toBe('/socket.io/?EIO=4&transport=websocket');
    expect(upgrade.headers.cookie).toBeUndefined();
    expect(verifyIdentityProof(upgrade, secret)).toMatchObject({
      ok: true,
      identity: { userId: 'user-1', sessionId: jti },
    });
    const first = opened[0] as { first: string; socket: WebSocket };
    const echoed = new Promise((resolve) =>
      first.socket.once('message', (d) => resolve(String(d))),
    );
    first.socket.send('hello');
    expect(await echoed).toBe(`${first.first}:hello`);
  });

  it('refuses an upgrade without a session (401) or from another origin (403), and a plain GET (400)', async () => {
    const ups = await instances(['one']);
    const { ws, http } = await gatewayFor(ups);
    expect(await open(ws, {})).toMatchObject({ status: 401 });
    expect(await open(ws, { cookie: cookie(), origin: 'https://evil.example' })).toMatchObject({
      status: 403,
    });
    const plain = await fetch(`${http}/socket.io/?EIO=4&transport=polling`, {
      headers: { cookie: cookie() },
    });
    expect(plain.status).toBe(400);
    expect(ups[0]!.upgrades).toHaveLength(0);
  });

  it('never accepts an upgrade onto an instance that is down: each goes to one that is up', async () => {
    const ups = await instances(['one'], ['two']);
    const { ws } = await gatewayFor(ups);
    await ups[0]!.stop();
    const opened: Opened[] = [];
    for (let i = 0; i < 4; i += 1) opened.push(await open(ws, { cookie: cookie() }));
    expect(opened.map(greeting)).toEqual(['two', 'two', 'two', 'two']);
    // started again: its probe puts it back in turn
    await ups[0]!.start();
    await vi.waitFor(
      async () => expect(greeting(await open(ws, { cookie: cookie() }))).toBe('one'),
      {
        timeout: 5_000,
      },
    );
  });

  it('sends GET /api/conversation to any instance that is up', async () => {
    const ups = await instances(['one'], ['two']);
    const { http } = await gatewayFor(ups); // CHAT_URL: one
    await ups[0]!.stop();
    for (let i = 0; i < 4; i += 1) {
      const res = await fetch(`${http}/api/conversation/a_b?limit=5`, {
        headers: { cookie: cookie() },
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ instance: 'two', url: '/api/conversation/a_b?limit=5' });
    }
  });

  it('answers 503 to the upgrade when no instance is up', async () => {
    const ups = await instances(['one'], ['two']);
    const { ws } = await gatewayFor(ups);
    await Promise.all(ups.map((u) => u.stop()));
    const refused = await open(ws, { cookie: cookie() });
    expect(refused).toMatchObject({ status: 503 });
    expect(JSON.parse((refused as { body: string }).body)).toEqual({
      error: 'service_unavailable',
      message: 'The chat service is unavailable right now. Please try again shortly.',
    });
  });

  it('passes over an instance answering the upgrade with 5xx; a 4xx is the answer', async () => {
    const failing = await instances(['failing', { refuse: 503 }], ['two']);
    const viaFailing = await gatewayFor(failing);
    for (let i = 0; i < 3; i += 1) {
      expect(greeting(await open(viaFailing.ws, { cookie: cookie() }))).toBe('two');
    }
    const refusing = await instances(['refusing', { refuse: 403 }]);
    const viaRefusing = await gatewayFor(refusing);
    expect(await open(viaRefusing.ws, { cookie: cookie() })).toMatchObject({ status: 403 });
  });

  it('tells a client its instance vanished as the instance would (a socket.io server disconnect), then closes with 1012', async () => {
    const ups = await instances(['one']);
    const { ws } = await gatewayFor(ups);
    const opened = (await open(ws, { cookie: cookie() })) as { socket: WebSocket };
    const said: string[] = [];
    opened.socket.on('message', (data) => said.push(String(data)));
    const closed = new Promise((resolve) => opened.socket.once('close', resolve));
    await ups[0]!.stop();
    expect(await closed).toBe(1012);
    expect(said).toEqual([SOCKET_IO_SERVER_DISCONNECT]);
  });

  it('takes no harm from a client resetting its connection while its upgrade waits', async () => {
    const ups = await instances(['slow', { hold: true }]);
    const { ws, gateway, logs } = await gatewayFor(ups);
    const { port } = gateway.server.address() as AddressInfo;
    const raw = tcpConnect(port, '127.0.0.1');
    raw.on('error', () => undefined);
    raw.write(
      [
        'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1',
        'Host: 127.0.0.1',
        'Connection: Upgrade',
        'Upgrade: websocket',
        'Sec-WebSocket-Version: 13',
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
        `Cookie: ${cookie()}`,
        '',
        '',
      ].join('\r\n'),
    );
    // the gateway is opening the instance's end: the client resets meanwhile
    await vi.waitFor(() => expect(ups[0]!.held()).toBe(1));
    raw.resetAndDestroy();
    ups[0]!.release();
    // nothing is left open for the client that left
    await vi.waitFor(() => expect(ups[0]!.connected()).toBe(0));
    // and the gateway still takes upgrades
    const next = open(ws, { cookie: cookie() });
    await vi.waitFor(() => expect(ups[0]!.held()).toBe(1));
    ups[0]!.release();
    expect(greeting(await next)).toBe('slow');
    expect(logs.errorsSince(0)).toEqual([]);
  });
});
