import {
  CHAT_SOCKET_PATH,
  NOTIFICATION_SOCKET_EVENT,
  NotificationPushed,
} from '@wayfarer/contracts';
import { io, type Socket } from 'socket.io-client';

export interface LiveHandlers {
  /** Connected (`again`: after a drop, so pushes may have been missed: read again). */
  onConnect(again: boolean): void;
  /** The connection dropped (socket.io retries: 1 to 5 s apart, its defaults). */
  onDisconnect(): void;
  onNotification(push: NotificationPushed): void;
}

/**
 * The signed-in layout's own socket.io connection to chat: it joins no room, it only
 * receives the user's `notification` pushes (chat emits them to every socket of the user). The
 * same origin, path and transport as the chat screen's socket (`src/chat/socket.ts`); socket.io
 * retries by itself while the gateway is away. Returns the function that closes it.
 */
export function connectLive(handlers: LiveHandlers): () => void {
  const socket: Socket = io({
    path: CHAT_SOCKET_PATH,
    transports: ['websocket'],
    withCredentials: true,
  });
  let connectedOnce = false;
  socket.on('connect', () => {
    handlers.onConnect(connectedOnce);
    connectedOnce = true;
  });
  socket.on('disconnect', (reason) => {
    handlers.onDisconnect();
    // the server closed it (an instance shutting down): socket.io would not retry by itself
    if (reason === 'io server disconnect') socket.connect();
  });
  socket.on(NOTIFICATION_SOCKET_EVENT, (payload: unknown) => {
    const push = NotificationPushed.safeParse(payload);
    if (push.success) handlers.onNotification(push.data);
  });
  return () => {
    socket.removeAllListeners();
    socket.disconnect();
  };
}
