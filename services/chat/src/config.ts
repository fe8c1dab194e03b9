import { z } from 'zod';
import { commonEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';

/** chat's environment (validated at start; every problem is named). */
export const ChatEnv = z.object({
  ...commonEnv,
  ...identityProofEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4006),
  MONGO_URL: z.string().min(1),
  MONGO_DB: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be a plain database name')
    .default('chat'),
  /** Redis of the socket.io adapter (Redis 7+ for the sharded one) and of session revocations. */
  REDIS_URL: z.url(),
  /**
   * The socket.io Redis adapter: `sharded` (SSUBSCRIBE/SPUBLISH, one channel per room: a node
   * receives only the rooms it has sockets in) or `classic` (one pattern subscription: every node
   * receives every broadcast). See the README.
   */
  CHAT_ADAPTER: z.enum(['sharded', 'classic']).default('sharded'),
  ...kafkaEnv,
});
export type ChatEnv = z.infer<typeof ChatEnv>;
