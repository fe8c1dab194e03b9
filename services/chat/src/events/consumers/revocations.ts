import type { Redis } from 'ioredis';
import {
  parseRevocationMessage,
  revokedSessionKey,
  SESSION_REVOCATIONS_CHANNEL,
} from '@wayfarer/contracts';
import type { Logger } from '@wayfarer/service-kit';
import { subscribeChannel } from './channel';

/**
 * Session revocations, as the gateway hears them: auth writes `revokedSessionKey(jti)` and
 * publishes on `SESSION_REVOCATIONS_CHANNEL` in one MULTI. chat checks the key on each handshake
 * (`isRevoked`) and, subscribed to the channel on every instance, cuts the sockets of a session
 * as soon as it is revoked (`onRevoked`).
 */
export function subscribeRevocations(options: {
  /** A connection of its own: it enters subscriber mode. */
  subscriber: Redis;
  logger: Logger;
  onRevoked: (sessionId: string) => void;
}): Promise<void> {
  return subscribeChannel(options.subscriber, SESSION_REVOCATIONS_CHANNEL, {
    parse: parseRevocationMessage,
    onMessage: (parsed) => options.onRevoked(parsed.jti),
    onUnreadable: (message) => options.logger.warn({ message }, 'unreadable revocation message'),
  });
}

export const isRevokedIn =
  (redis: Redis) =>
  async (sessionId: string): Promise<boolean> =>
    (await redis.exists(revokedSessionKey(sessionId))) === 1;
