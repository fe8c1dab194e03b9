import { z } from 'zod';
import { commonEnv, kafkaEnv } from '@wayfarer/service-kit';

/** trips' environment (validated at start; every problem is named). */
export const TripsEnv = z.object({
  ...commonEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4002),
  MONGO_URL: z.string().min(1),
  MONGO_DB: z.string().min(1).default('trips'),
  ...kafkaEnv,
  S3_ENDPOINT: z.url(),
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  S3_REGION: z.string().min(1).default('us-east-1'),
  PHOTO_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .default('photos'),
});
export type TripsEnv = z.infer<typeof TripsEnv>;
