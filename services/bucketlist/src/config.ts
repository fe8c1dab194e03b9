import { z } from 'zod';
import { commonEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';
import { pgEnv } from '@wayfarer/service-kit/pg';

/** bucketlist's environment (validated at start; every problem is named). */
export const BucketListEnv = z.object({
  ...commonEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4003),
  ...pgEnv,
  ...kafkaEnv,
  ...identityProofEnv,
});
export type BucketListEnv = z.infer<typeof BucketListEnv>;
