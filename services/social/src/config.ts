import { z } from 'zod';
import { commonEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';
import { pgEnv } from '@wayfarer/service-kit/pg';

/** social's environment (validated at start; every problem is named). */
export const SocialEnv = z.object({
  ...commonEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4004),
  ...pgEnv,
  ...kafkaEnv,
  ...identityProofEnv,
});
export type SocialEnv = z.infer<typeof SocialEnv>;
