import type { Server as HttpServer, IncomingMessage } from 'node:http';
import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import type { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import {
  CHAT_SOCKET_PATH,
  ChatEvents,
  ChatMessages,
  IdempotencyMessages,
  NOTIFICATION_SOCKET_EVENT,
  SendMessage,
  type ChatAck,
  type NotificationPushed,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { HttpError, verifyIdentityProof, type Logger } from '@wayfarer/service-kit';
import { ChatRefusedError } from '../domain/errors';
import { allowSend, checkText, payloadError, roomOfMessage } from '../domain/messages';
import type { ChatStores } from '../store';
import type { ChatUseCaseDeps } from '../usecases/deps';
import { joinRoom } from '../usecases/join-room';
import { sendMessage } from '../usecases/send-message';

export interface SocketDeps {
  server: HttpServer;
  stores: ChatStores;
  logger: Logger;
  identityProofSecret: Buffer;
  adapter: 'sharded' | 'classic';
  /** Redis connections of the adapter: one to publish, one to subscribe. */
  pubClient: Redis;
  subClient: Redis;
  /** Whether a session id is revoked now (events/consumers/revocations.ts). */
  isRevoked: (sessionId: string) => Promise<boolean>;
  /** Called after a message (and its `message.sent` in its outbox) is stored: the relay's kick. */
  onStored?: () => void;
}

/**
 * How long a send waits to learn whether the recipient has a socket in the room on another
 * instance (the adapter's `fetchSockets` asks every instance through Redis: a millisecond or two
 * normally). Past it, or on an error, the recipient counts as absent: a notification too many
 * rather than one missed.
 */
export const PRESENCE_TIMEOUT_MS = 250;

interface SocketData {
  userId: string;
  sessionId: string | null;
  /** Times of the sends still in the rate window. */
  sent: number[];
}

type ChatSocket = Socket<
  Record<string, never>,
  Record<string, never>,
  Record<string, never>,
  SocketData
>;
type Ack<T> = (answer: T) => void;

/** The ack callback a client passed (last argument), or a no-op. */
const ackOf = <T>(fn: unknown): Ack<T> => (typeof fn === 'function' ? (fn as Ack<T>) : () => {});

/**
 * chat's socket.io server on the service's HTTP server, at `/socket.io/`, websocket transport
 * only (no long-polling: every request of a connection is the one upgrade, so no sticky routing
 * is needed in front of several instances). The upgrade request must carry the gateway's
 * identity proof with a signed-in user (bound to `GET /socket.io/`, query excluded) and a
 * session that is not revoked; anything else is refused before a connection exists.
 */
export function createSocketServer(deps: SocketDeps) {
  const { stores, logger } = deps;
  const log = logger.child({ component: 'socket' });
  const io = new Server(deps.server, {
    path: CHAT_SOCKET_PATH.replace(/\/$/, ''),
    transports: ['websocket'],
    serveClient: false,
    // the client's own origin: the gateway is the only way in, and checks the session cookie
    allowRequest: (req, callback) => {
      const check = verifyIdentityProof(req, deps.identityProofSecret);
      callback(null, check.ok && check.identity.userId !== null);
    },
    adapter:
      deps.adapter === 'sharded'
        ? createShardedAdapter(deps.pubClient, deps.subClient)
        : createAdapter(deps.pubClient, deps.subClient),
  });

  io.use((socket, next) => {
    const check = verifyIdentityProof(socket.request as IncomingMessage, deps.identityProofSecret);
    if (!check.ok || check.identity.userId === null) {
      next(new Error(ChatMessages.notAuthenticated));
      return;
    }
    const { userId, sessionId, sessionExpires } = check.identity;
    const accept = () => {
      const data = socket.data as SocketData;
      data.userId = userId;
      data.sessionId = sessionId;
      data.sent = [];
      if (sessionExpires !== null) {
        // the session ends: so does its socket
        const timer = setTimeout(
          () => socket.disconnect(true),
          Math.max(0, sessionExpires * 1000 - Date.now()),
        );
        timer.unref();
        socket.on('disconnect', () => clearTimeout(timer));
      }
      next();
    };
    if (sessionId === null) {
      accept();
      return;
    }
    deps.isRevoked(sessionId).then(
      (revoked) => (revoked ? next(new Error(ChatMessages.sessionRevoked)) : accept()),
      (err: unknown) => {
        log.warn({ err }, 'revocation check failed: refusing the socket');
        next(new Error(ChatMessages.sessionRevoked));
      },
    );
  });

  /**
   * Whether `userId` has a socket joined to `roomId` now, on this instance or any other (through
   * the adapter: works with the sharded one); false when that is not known within
   * `PRESENCE_TIMEOUT_MS`. Never throws.
   */
  const inRoom = async (roomId: string, userId: string): Promise<boolean> => {
    const isUser = (s: { data: unknown }) => (s.data as SocketData | undefined)?.userId === userId;
    try {
      if ((await io.in(roomId).local.fetchSockets()).some(isUser)) return true;
      return (await io.in(roomId).timeout(PRESENCE_TIMEOUT_MS).fetchSockets()).some(isUser);
    } catch (err) {
      log.warn({ err }, 'presence unknown: the recipient counts as absent');
      return false;
    }
  };

  const useCases: ChatUseCaseDeps = { stores, presence: inRoom, onStored: deps.onStored };

  /** What a refusal of a use case acks (`{ ok: false, error }`); anything else is thrown. */
  const refusal = (err: unknown): { ok: false; error: string } | null => {
    if (err instanceof ChatRefusedError) return { ok: false, error: err.message };
    // the clientId was used before for another message (service-kit's 422)
    if (err instanceof HttpError && err.statusCode === 422) {
      return { ok: false, error: IdempotencyMessages.clientIdReused };
    }
    return null;
  };

  io.on('connection', (raw) => {
    const socket = raw as unknown as ChatSocket;
    const { userId } = socket.data;
    // each user's sockets share a room of the user's own, for `leaveRoomOf` across instances
    void socket.join(userRoom(userId));

    socket.on(ChatEvents.join, async (roomId: unknown, ackFn: unknown) => {
      const ack = ackOf<ChatAck>(ackFn);
      try {
        await socket.join(await joinRoom(useCases, userId, roomId));
        ack({ ok: true });
      } catch (err) {
        const refused = refusal(err);
        if (refused) return ack(refused);
        log.error({ err }, 'join failed');
        ack({ ok: false, error: ChatMessages.failed });
      }
    });

    socket.on(ChatEvents.leave, async (roomId: unknown, ackFn: unknown) => {
      const ack = ackOf<ChatAck>(ackFn);
      if (typeof roomId === 'string' && socket.rooms.has(roomId) && roomId !== userRoom(userId)) {
        await socket.leave(roomId);
      }
      ack({ ok: true });
    });

    socket.on(ChatEvents.sendMessage, async (payload: unknown, ackFn: unknown) => {
      const ack = ackOf<SendMessageAck>(ackFn);
      try {
        if (!allowSend(socket.data.sent, Date.now())) {
          return ack({ ok: false, error: ChatMessages.rateLimited });
        }
        const parsed = SendMessage.safeParse(payload);
        if (!parsed.success) return ack({ ok: false, error: payloadError(parsed.error) });
        const text = checkText(parsed.data.text);
        if (!text.ok) return ack({ ok: false, error: text.error });
        // the sender is the authenticated user: the client's `from` is ignored
        const room = roomOfMessage(userId, parsed.data.to);
        if (!room.ok) return ack({ ok: false, error: room.error });
        const message = await sendMessage(useCases, userId, {
          roomId: room.roomId,
          recipientId: room.otherId,
          text: text.text,
          clientId: parsed.data.clientId,
        });
        // stored first; then acknowledged and delivered to the room on every instance (a
        // resend delivers it again: the first send may have stored it and died before this;
        // clients keep each _id once)
        ack({ ok: true, message });
        io.to(room.roomId).emit(ChatEvents.receiveMessage, message);
      } catch (err) {
        const refused = refusal(err);
        if (refused) return ack(refused);
        log.error({ err }, 'send_message failed');
        ack({ ok: false, error: ChatMessages.failed });
      }
    });
  });

  return {
    io,
    /**
     * A notification for `userId`, emitted to their sockets on this instance (each instance
     * hears every push: events/consumers/notification-pushes.ts).
     */
    pushToUser(userId: string, pushed: NotificationPushed): void {
      io.local.to(userRoom(userId)).emit(NOTIFICATION_SOCKET_EVENT, pushed);
    },
    /** The sockets of both users (on every instance) leave their room: unfriending ends it. */
    async leaveRoomOf(userIds: [string, string], roomId: string): Promise<void> {
      io.in(userRoom(userIds[0])).socketsLeave(roomId);
      io.in(userRoom(userIds[1])).socketsLeave(roomId);
      await Promise.resolve();
    },
    /** Cuts this instance's sockets of a revoked session (each instance hears every revocation). */
    disconnectSession(sessionId: string): number {
      let cut = 0;
      for (const socket of io.of('/').sockets.values()) {
        if ((socket.data as SocketData).sessionId === sessionId) {
          socket.disconnect(true);
          cut += 1;
        }
      }
      return cut;
    },
    /** Closes this instance's sockets and the engine (not the HTTP server, not Redis). */
    closeLocal(): void {
      io.local.disconnectSockets(true);
      io.engine.close();
    },
  };
}

/** The room of all of a user's sockets (a chat room id is `<id>_<id>`, never `user:`-prefixed). */
const userRoom = (userId: string): string => `user:${userId}`;

export type SocketServer = ReturnType<typeof createSocketServer>;
