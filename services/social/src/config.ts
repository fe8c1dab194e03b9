import { z } from 'zod';
import { commonEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';

/** social's environment (validated at start; every problem is named). */
export const SocialEnv = z.object({
  ...commonEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4004),
  DATABASE_URL: z.string().min(1),
  /**
   * Optional: the PostgreSQL server as an admin may reach it (compose). When set, the database
   * DATABASE_URL names is created on start if it is missing; production provisions it instead.
   */
  PG_URL: z.string().min(1).optional(),
  ...kafkaEnv,
  ...identityProofEnv,
});
export type SocialEnv = z.infer<typeof SocialEnv>;
