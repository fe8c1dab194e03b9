import type { Redis } from 'ioredis';
import {
  revocationMessage,
  revokedSessionKey,
  SESSION_REVOCATIONS_CHANNEL,
} from '@wayfarer/contracts';

/** Revokes a session the way auth does: the key and its announcement in one MULTI. */
export async function revokeAsAuthDoes(
  redis: Redis,
  jti: string,
  expiresAtSeconds = Math.floor(Date.now() / 1000) + 120,
): Promise<void> {
  await redis
    .multi()
    .set(revokedSessionKey(jti), '1', 'EXAT', expiresAtSeconds)
    .publish(SESSION_REVOCATIONS_CHANNEL, revocationMessage(jti, expiresAtSeconds))
    .exec();
}
