import { z } from 'zod';
import { commonEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';
import { mongoEnv } from '@wayfarer/service-kit/mongo';

/** chat's environment (validated at start; every problem is named). */
export const ChatEnv = z.object({
  ...commonEnv,
  ...identityProofEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4006),
  ...mongoEnv('chat'),
  /**
   * Redis of the socket.io adapter (Redis 7+ for the sharded one), of session revocations and
   * of the access fences (ended friendships, closed accounts).
   */
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
