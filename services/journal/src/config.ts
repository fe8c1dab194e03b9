import { z } from 'zod';
import { commonEnv, fencesEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';
import { mongoEnv } from '@wayfarer/service-kit/mongo';

/** journal's environment (validated at start; every problem is named). */
export const JournalEnv = z.object({
  ...commonEnv,
  ...identityProofEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4005),
  ...mongoEnv('journal'),
  ...kafkaEnv,
  /** Redis: the access fences (ended friendships, closed accounts) checked before serving. */
  ...fencesEnv,
});
export type JournalEnv = z.infer<typeof JournalEnv>;
