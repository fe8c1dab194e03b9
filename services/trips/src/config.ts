import { z } from 'zod';
import { commonEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';
import { bucketEnv, s3Env } from '@wayfarer/storage';

/** trips' environment (validated at start; every problem is named). */
export const TripsEnv = z.object({
  ...commonEnv,
  ...identityProofEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4002),
  MONGO_URL: z.string().min(1),
  MONGO_DB: z.string().min(1).default('trips'),
  ...kafkaEnv,
  ...s3Env,
  PHOTO_BUCKET: bucketEnv('photos'),
});
export type TripsEnv = z.infer<typeof TripsEnv>;
