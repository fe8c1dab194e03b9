/**
 * One process of `delivery.bench.ts` (each node of the measured paths in a process of its own,
 * as deployed and as the field notes' floor was measured):
 *
 * - `chat`: chat booted by its composition root (`createService`), listening like its `main.ts`;
 *   the parent gives both instances one database, one consumer-group prefix and the adapter;
 * - `gateway`: the gateway booted like its `main.ts` (`buildApp`, its Redis client), spreading
 *   socket upgrades over `CHAT_URLS`;
 * - `bare`: the floor, a bare socket.io server with the same Redis adapter and nothing else: `join`
 *   joins the room, `send_message` is acknowledged and broadcast to the room (no session, no
 *   friendship check, no storage).
 *
 * Answers the parent over IPC with `{ ready: true }` once listening on `PORT`; a chat instance
 * answers the message `'sockets'` with `{ sockets: <how many it has> }`.
 */
import { createServer } from 'node:http';
import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import { Redis } from 'ioredis';
import { Server } from 'socket.io';
import { CHAT_SOCKET_PATH, ChatEvents } from '@wayfarer/contracts';
import { createLogger, loadConfig, loadIdentityProofSecret } from '@wayfarer/service-kit';
import { testServiceEnv } from '@wayfarer/test-kit';
import { buildApp, connectRedis, loadGatewayConfig } from '@wayfarer/gateway';
import { ChatEnv, createService } from '@wayfarer/chat';

if (!process.send) throw new Error('run by delivery.bench.ts (with IPC)');
const role = process.env.ROLE;
const port = Number(process.env.PORT);
const adapter = process.env.CHAT_ADAPTER === 'classic' ? 'classic' : 'sharded';
let close: () => Promise<unknown>;

if (role === 'chat') {
  const env = loadConfig(
    ChatEnv,
    testServiceEnv({
      MONGO_DB: process.env.MONGO_DB!,
      CHAT_ADAPTER: adapter,
      KAFKA_GROUP_PREFIX: process.env.KAFKA_GROUP_PREFIX!,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
    }),
  );
  const svc = await createService(env, { skipHistory: true });
  await svc.projections.started;
  await svc.app.listen({ port, host: '127.0.0.1' });
  // the parent may ask how many sockets this instance has (failover.bench.ts)
  process.on('message', (m) => {
    if (m === 'sockets') process.send!({ sockets: svc.sockets.io.of('/').sockets.size });
  });
  close = () => svc.close();
} else if (role === 'gateway') {
  const config = loadGatewayConfig({ ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'warn' });
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const redis = connectRedis(config.REDIS_URL, logger);
  const app = await buildApp({
    config,
    redis,
    logger,
    publicKeyPem: process.env.SESSION_PUBLIC_KEY!,
    identityProofSecret: loadIdentityProofSecret(config),
  });
  await app.listen({ port, host: '127.0.0.1' });
  close = async () => {
    await app.close();
    await redis.quit();
  };
} else if (role === 'bare') {
  const pub = new Redis(process.env.REDIS_URL!);
  const sub = pub.duplicate();
  const server = createServer();
  const io = new Server(server, {
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    adapter: adapter === 'sharded' ? createShardedAdapter(pub, sub) : createAdapter(pub, sub),
  });
  io.on('connection', (socket) => {
    socket.on(ChatEvents.join, async (room: string, ack: (a: unknown) => void) => {
      await socket.join(room);
      ack({ ok: true });
    });
    socket.on(
      ChatEvents.sendMessage,
      (m: { room: string; clientId: string }, ack: (a: unknown) => void) => {
        ack({ ok: true });
        io.to(m.room).emit(ChatEvents.receiveMessage, m);
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  close = async () => {
    io.disconnectSockets(true);
    await io.of('/').adapter.close();
    await new Promise((resolve) => io.close(resolve));
    await Promise.allSettled([pub.quit(), sub.quit()]);
  };
} else {
  throw new Error(`unknown ROLE ${role}`);
}

process.once('SIGTERM', () => {
  void close().finally(() => process.exit(0));
});
process.send({ ready: true });
