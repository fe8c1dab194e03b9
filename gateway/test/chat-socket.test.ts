import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { createSigner } from 'fast-jwt';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { SESSION_AUDIENCE, SESSION_COOKIE, SESSION_ISSUER } from '@wayfarer/contracts';
import { createLogger, verifyIdentityProof } from '@wayfarer/service-kit';
import { publicKeyPem } from '@wayfarer/service-kit/keys';
import { TEST_IDENTITY_PROOF_SECRET, testInfra } from '@wayfarer/test-kit';
import { buildApp } from '../src/app';
import { GatewayEnv } from '../src/config';

const secret = Buffer.from(TEST_IDENTITY_PROOF_SECRET);

/** A real websocket upstream (a chat instance's stand-in) recording each upgrade it accepted. */
async function startUpstream(name: string) {
  const upgrades: IncomingMessage[] = [];
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  wss.on('connection', (socket, request) => {
    upgrades.push(request);
    socket.send(name);
  });
  await new Promise((resolve) => wss.once('listening', resolve));
  const { port } = wss.address() as { port: number };
  return { name, wss, upgrades, url: `http://127.0.0.1:${port}` };
}

describe("gateway: chat's socket", () => {
  const { privateKey } = generateKeyPairSync('ed25519');
  const sign = createSigner({
    key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    algorithm: 'EdDSA',
    iss: SESSION_ISSUER,
    aud: SESSION_AUDIENCE,
    expiresIn: 60_000,
  });
  let gateway: FastifyInstance;
  let redis: Redis;
  let base: string;
  let ups: Awaited<ReturnType<typeof startUpstream>>[];

  beforeAll(async () => {
    ups = [await startUpstream('one'), await startUpstream('two')];
    redis = new Redis(testInfra().redisUrl);
    const config = GatewayEnv.parse({
      PORT: '8080',
      REDIS_URL: testInfra().redisUrl,
      CHAT_URLS: ups.map((u) => u.url).join(','),
      LOG_LEVEL: 'silent',
    });
    gateway = await buildApp({
      config,
      redis,
      logger: createLogger('gateway-test', 'silent'),
      publicKeyPem: publicKeyPem(privateKey),
      identityProofSecret: secret,
    });
    const address = await gateway.listen({ port: 0, host: '127.0.0.1' });
    base = address.replace('http', 'ws');
  });

  afterAll(async () => {
    await gateway?.close();
    for (const u of ups ?? []) u.wss.close();
    await redis?.quit();
  });

  const open = (headers: Record<string, string>) =>
    new Promise<{ first: string } | { status: number }>((resolve) => {
      const ws = new WebSocket(`${base}/socket.io/?EIO=4&transport=websocket`, { headers });
      ws.once('message', (data) => {
        resolve({ first: String(data) });
        ws.close();
      });
      ws.once('unexpected-response', (_req, res) => resolve({ status: res.statusCode ?? 0 }));
      ws.once('error', () => undefined);
    });

  it('spreads upgrades round-robin with a proof bound to GET /socket.io/, without the cookie', async () => {
    const jti = randomUUID();
    const cookie = `${SESSION_COOKIE}=${sign({ sub: 'user-1', jti })}`;
    const firsts = [];
    for (let i = 0; i < 4; i += 1) firsts.push(await open({ cookie }));
    expect(firsts.map((f) => ('first' in f ? f.first : f.status)).sort()).toEqual([
      'one',
      'one',
      'two',
      'two',
    ]);
    const upgrade = ups[0]!.upgrades[0]!;
    expect(upgrade.url).toBe('/socket.io/?EIO=4&transport=websocket');
    expect(upgrade.headers.cookie).toBeUndefined();
    expect(verifyIdentityProof(upgrade, secret)).toMatchObject({
      ok: true,
      identity: { userId: 'user-1', sessionId: jti },
    });
  });

  it('refuses an upgrade without a session (401) or from another origin (403)', async () => {
    const before = ups[0]!.upgrades.length + ups[1]!.upgrades.length;
    expect(await open({})).toEqual({ status: 401 });
    const cookie = `${SESSION_COOKIE}=${sign({ sub: 'user-1', jti: randomUUID() })}`;
    expect(await open({ cookie, origin: 'https://evil.example' })).toEqual({ status: 403 });
    expect(ups[0]!.upgrades.length + ups[1]!.upgrades.length).toBe(before);
  });
});
