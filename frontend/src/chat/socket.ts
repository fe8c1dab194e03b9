import {
  CHAT_SOCKET_PATH,
  ChatEvents,
  ChatMessages,
  type ChatAck,
  type ReceiveMessage,
  type SendMessage,
  type SendMessageAck,
} from '@wayfarer/contracts';
import { io, type Socket } from 'socket.io-client';

/** How long an emit waits for the server's ack before it counts as not sent. */
export const CHAT_ACK_TIMEOUT_MS = 10_000;

export interface ChatSocketHandlers {
  /** Connected (`again`: after a drop, so something may have been missed). */
  onConnect(again: boolean): void;
  /**
   * The connection is down: `reconnecting` while socket.io retries (delays 1 to 5 s, the
   * library's defaults), `offline` when the server refused the handshake.
   */
  onDown(state: 'reconnecting' | 'offline', error: string | null): void;
  onMessage(message: ReceiveMessage): void;
}

export interface ChatSocket {
  readonly connected: boolean;
  join(roomId: string): Promise<ChatAck>;
  leave(roomId: string): void;
  send(message: SendMessage): Promise<SendMessageAck>;
  /** Tries again after the server refused the connection (or the room). */
  reconnect(): void;
  /** Stops trying (the session is over); `reconnect` starts again. */
  pause(): void;
  /** Disconnects for good (leaving the screen). */
  close(): void;
}

const failure = (error: string) => ({ ok: false as const, error });

/**
 * The chat's socket.io connection: the product's own origin (whatever host and port served the
 * page; the gateway, or vite's dev proxy, forwards it) at socket.io's default path, websocket
 * transport only (every instance can take any socket, no sticky routing), the session cookie
 * sent with the handshake.
 */
export function connectChat(handlers: ChatSocketHandlers): ChatSocket {
  const socket: Socket = io({
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    withCredentials: true,
  });
  let connectedOnce = false;
  let closed = false;

  socket.on('connect', () => {
    handlers.onConnect(connectedOnce);
    connectedOnce = true;
  });
  socket.on('disconnect', (reason) => {
    if (closed || reason === 'io client disconnect') return;
    handlers.onDown('reconnecting', null);
    // the server closed it: its instance shutting down (another takes over) or the session
    // revoked (the gateway then refuses the handshake); socket.io would not retry by itself
    if (reason === 'io server disconnect') socket.connect();
  });
  socket.on('connect_error', (err: Error) => {
    if (closed) return;
    // `active`: a transient failure socket.io retries; otherwise the handshake was refused
    if (socket.active) handlers.onDown('reconnecting', null);
    else handlers.onDown('offline', err.message || null);
  });
  socket.on(ChatEvents.receiveMessage, (message: ReceiveMessage) => {
    if (!closed) handlers.onMessage(message);
  });

  const emit = <T>(event: string, payload: unknown): Promise<T | ReturnType<typeof failure>> =>
    new Promise((resolve) => {
      socket
        .timeout(CHAT_ACK_TIMEOUT_MS)
        .emit(event, payload, (err: Error | null, ack: T | undefined) => {
          if (err || ack === undefined) resolve(failure(ChatMessages.failed));
          else resolve(ack);
        });
    });

  return {
    get connected() {
      return socket.connected;
    },
    join: (roomId) => emit<ChatAck>(ChatEvents.join, roomId),
    leave: (roomId) => {
      if (socket.connected) socket.emit(ChatEvents.leave, roomId);
    },
    send: (message) => emit<SendMessageAck>(ChatEvents.sendMessage, message),
    reconnect: () => {
      if (closed) return;
      if (socket.connected)
        handlers.onConnect(true); // the join was refused: join again
      else socket.connect();
    },
    pause: () => {
      if (!closed) socket.disconnect();
    },
    close: () => {
      closed = true;
      socket.removeAllListeners();
      socket.disconnect();
    },
  };
}
