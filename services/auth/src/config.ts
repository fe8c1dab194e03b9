import { z } from 'zod';
import { commonEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';
import { bucketEnv, s3Env, spoolDirEnv } from '@wayfarer/storage';

const bool = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

/** auth's environment (validated at start; every problem is named). */
export const AuthEnv = z
  .object({
    ...commonEnv,
    PORT: z.coerce.number().int().min(1).max(65535).default(4001),
    DATABASE_URL: z.string().min(1),
    REDIS_URL: z.string().min(1),
    ...kafkaEnv,
    ...s3Env,
    AVATAR_BUCKET: bucketEnv('avatars'),
    /** Where profile pictures are spooled: one directory per instance, swept of dead instances' files. */
    SPOOL_DIR: spoolDirEnv('auth'),
    ...identityProofEnv,
    SESSION_PRIVATE_KEY: z.string().optional(),
    SESSION_KEY_DIR: z.string().optional(),
    COOKIE_SECURE: bool,
    /** How often revocations Redis may lack are re-written from PostgreSQL (and expired ones pruned). */
    REVOCATION_SYNC_MS: z.coerce.number().int().min(100).default(10_000),
  })
  .refine((env) => env.SESSION_PRIVATE_KEY || env.SESSION_KEY_DIR, {
    message: 'set SESSION_PRIVATE_KEY (PEM) or SESSION_KEY_DIR (local dev keys)',
    path: ['SESSION_PRIVATE_KEY'],
  });
export type AuthEnv = z.infer<typeof AuthEnv>;
