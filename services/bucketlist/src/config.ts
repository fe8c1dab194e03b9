import { z } from 'zod';
import { commonEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';

/** bucketlist's environment (validated at start; every problem is named). */
export const BucketListEnv = z.object({
  ...commonEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4003),
  DATABASE_URL: z.string().min(1),
  ...kafkaEnv,
  ...identityProofEnv,
});
export type BucketListEnv = z.infer<typeof BucketListEnv>;
