import { z } from 'zod';
import { commonEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';

/** journal's environment (validated at start; every problem is named). */
export const JournalEnv = z.object({
  ...commonEnv,
  ...identityProofEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4005),
  MONGO_URL: z.string().min(1),
  MONGO_DB: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,63}$/, 'must be a plain database name')
    .default('journal'),
  ...kafkaEnv,
});
export type JournalEnv = z.infer<typeof JournalEnv>;
