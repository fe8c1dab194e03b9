import { z } from 'zod';
import { commonEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';
import { pgEnv } from '@wayfarer/service-kit/pg';

/** notifications' environment (validated at start; every problem is named). */
export const NotificationsEnv = z.object({
  ...commonEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4008),
  ...pgEnv,
  ...kafkaEnv,
  ...identityProofEnv,
  /**
   * Redis: each stored notification is published on contracts' NOTIFICATIONS_PUSH_CHANNEL,
   * which every chat instance relays to its own sockets of the user (the live push).
   */
  REDIS_URL: z.url(),
});
export type NotificationsEnv = z.infer<typeof NotificationsEnv>;
