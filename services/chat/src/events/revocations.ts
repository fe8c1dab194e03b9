import type { Redis } from 'ioredis';
import {
  parseRevocationMessage,
  revokedSessionKey,
  SESSION_REVOCATIONS_CHANNEL,
} from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';

/**
 * Session revocations, as the gateway hears them: auth writes `revokedSessionKey(jti)` and
 * publishes on `SESSION_REVOCATIONS_CHANNEL` in one MULTI. chat checks the key on each handshake
 * (`isRevoked`) and, subscribed to the channel on every instance, cuts the sockets of a session
 * as soon as it is revoked (`onRevoked`).
 */
export async function subscribeRevocations(options: {
  /** A connection of its own: it enters subscriber mode. */
  subscriber: Redis;
  logger: Logger;
  onRevoked: (sessionId: string) => void;
}): Promise<void> {
  const { subscriber, logger, onRevoked } = options;
  subscriber.on('message', (channel: string, message: string) => {
    if (channel !== SESSION_REVOCATIONS_CHANNEL) return;
    const parsed = parseRevocationMessage(message);
    if (!parsed) {
      logger.warn({ message }, 'unreadable revocation message');
      return;
    }
    onRevoked(parsed.jti);
  });
  await subscriber.subscribe(SESSION_REVOCATIONS_CHANNEL);
}

export const isRevokedIn =
  (redis: Redis) =>
  async (sessionId: string): Promise<boolean> =>
    (await redis.exists(revokedSessionKey(sessionId))) === 1;
