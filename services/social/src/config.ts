import { z } from 'zod';
import { commonEnv, fencesEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';
import { pgEnv } from '@wayfarer/service-kit/pg';

/** social's environment (validated at start; every problem is named). */
export const SocialEnv = z.object({
  ...commonEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4004),
  ...pgEnv,
  ...kafkaEnv,
  ...identityProofEnv,
  /** Redis: the access fences (an unfriending's, written; closed accounts', read by search). */
  ...fencesEnv,
  /**
   * Bound of the in-memory cache of `GET /api/friends` pages (bodies and bookkeeping), bytes;
   * 0 turns the cache (and its LISTEN connection) off.
   */
  FRIENDS_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024 * 1024),
  /**
   * Bound of the in-memory cache of `GET /api/feed` pages, bytes; 0 turns it off. It
   * hears the same notifications as the friends cache.
   */
  FEED_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(16 * 1024 * 1024),
  /**
   * Bound of the in-memory cache of `GET /api/stats` answers (each user's own and
   * friends-visible figures), bytes; 0 turns it off. It hears the same notifications.
   */
  STATS_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(16 * 1024 * 1024),
});
export type SocialEnv = z.infer<typeof SocialEnv>;
