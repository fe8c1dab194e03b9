import { Redis } from 'ioredis';
import {
  composeService,
  connectFences,
  createLogger,
  groupIds,
  socketMetrics,
} from '@wayfarer/service-kit';
import { openMongoService } from '@wayfarer/service-kit/mongo';
import { buildApp } from './app';
import type { ChatEnv } from './config';
import { CONSUMERS, startProjections, type ProjectionOptions } from './events/consumers';
import { subscribeNotifications } from './events/consumers/notification-pushes';
import { isRevokedIn, subscribeRevocations } from './events/consumers/revocations';
import { PUBLISHED_TOPICS } from './events/outbox';
import { createSocketServer } from './socket/server';
import { openStores } from './store';

/** What a caller may set besides the env (tests: consumers that skip earlier history). */
export type ChatServiceOptions = Pick<ProjectionOptions, 'skipHistory' | 'maxRetryDelayMs'>;

/**
 * chat's composition root: MongoDB stores (messages with their outbox and its relay, users and
 * friendships projections, the inbox), three Redis connections (the adapter's publisher, which
 * also reads revocation keys; its subscriber; the subscriber of revocations and notification
 * pushes), the socket.io server on the app's HTTP server, the projections.
 * `main.ts` listens with it; the integration tests boot two of it on ephemeral ports. `close()`
 * disconnects this instance's sockets, closes the app, the projections, Redis, then MongoDB.
 */
export async function createService(env: ChatEnv, options: ChatServiceOptions = {}) {
  return composeService(async (onClose) => {
    // access fences (Redis): friends' reads refuse what social or auth ended before their
    // events arrive
    const { fences, close: closeFences } = await connectFences(
      env.REDIS_URL,
      createLogger('chat', env.LOG_LEVEL),
    );
    onClose(closeFences);
    const { logger, identityProofSecret, db, stores, kafka, relay } = await openMongoService({
      name: 'chat',
      env,
      stores: (db) => openStores(db, fences),
      // senders' clientIds, kept in their messages (unique index; pruned after 24 h)
      idempotent: (s) => [s.messages.idempotency],
      // each message's message.sent, in its own document
      outbox: { topics: PUBLISHED_TOPICS, collections: (s) => [s.messages.collection] },
      onClose,
    });

    const redisOptions = { maxRetriesPerRequest: 2, commandTimeout: 2000 };
    const pubClient = new Redis(env.REDIS_URL, redisOptions);
    const subClient = pubClient.duplicate();
    const revocationsClient = pubClient.duplicate();
    onClose(() =>
      Promise.allSettled([pubClient, subClient, revocationsClient].map((r) => r.quit())),
    );

    const app = buildApp({
      logger,
      db,
      stores,
      identityProofSecret,
      readiness: { redis: () => pubClient.ping() },
    });
    const sockets = createSocketServer({
      server: app.server,
      stores,
      logger,
      identityProofSecret,
      adapter: env.CHAT_ADAPTER,
      pubClient,
      subClient,
      isRevoked: isRevokedIn(pubClient),
      onStored: () => relay.kick(),
    });
    onClose(socketMetrics(() => sockets.io.of('/').sockets.size));
    // before the HTTP server closes: its upgraded connections would hold it open
    app.addHook('preClose', async () => {
      sockets.closeLocal();
      await sockets.io.of('/').adapter.close();
    });

    await subscribeRevocations({
      subscriber: revocationsClient,
      logger,
      onRevoked: (sessionId) => {
        const cut = sockets.disconnectSession(sessionId);
        if (cut > 0) logger.info({ cut }, 'revoked session: sockets disconnected');
      },
    });

    // notifications, pushed by the notifications service through Redis: this
    // instance's sockets of the user get each one
    await subscribeNotifications({
      subscriber: revocationsClient,
      logger,
      onPush: ({ userId, notification, unread }) =>
        sockets.pushToUser(userId, { notification, unread }),
    });

    const projections = startProjections({
      kafka,
      db,
      stores,
      logger,
      groupIds: groupIds(env, CONSUMERS),
      leaveRoom: (userIds, roomId) => sockets.leaveRoomOf(userIds, roomId),
      ...options,
    });
    onClose(() => projections.stop());

    return { app, logger, db, stores, relay, projections, sockets };
  });
}

export type ChatService = Awaited<ReturnType<typeof createService>>;
