import type { Redis } from 'ioredis';

/**
 * Hands every message of a Redis pub/sub `channel` that `parse` reads to `onMessage`, and an
 * unreadable one to `onUnreadable`; resolves once subscribed. `subscriber` is a connection in
 * subscriber mode (it may hold other channels: each listener keeps to its own). A message
 * published while the connection is not subscribed is not seen.
 */
export async function subscribeChannel<T>(
  subscriber: Redis,
  channel: string,
  handlers: {
    parse: (message: string) => T | null;
    onMessage: (value: T) => void;
    onUnreadable: (message: string) => void;
  },
): Promise<void> {
  subscriber.on('message', (from: string, message: string) => {
    if (from !== channel) return;
    const value = handlers.parse(message);
    if (value === null) handlers.onUnreadable(message);
    else handlers.onMessage(value);
  });
  await subscriber.subscribe(channel);
}
