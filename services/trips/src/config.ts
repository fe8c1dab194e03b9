import { z } from 'zod';
import { ImportLimits } from '@wayfarer/contracts';
import { commonEnv, fencesEnv, identityProofEnv, kafkaEnv } from '@wayfarer/service-kit';
import { bucketEnv, imageConcurrencyEnv, s3Env, spoolDirEnv } from '@wayfarer/storage';

/** trips' environment (validated at start; every problem is named). */
export const TripsEnv = z.object({
  ...commonEnv,
  ...identityProofEnv,
  PORT: z.coerce.number().int().min(1).max(65535).default(4002),
  MONGO_URL: z.string().min(1),
  MONGO_DB: z.string().min(1).default('trips'),
  ...kafkaEnv,
  /** Redis: the access fences (ended friendships, closed accounts) checked before serving. */
  ...fencesEnv,
  ...s3Env,
  PHOTO_BUCKET: bucketEnv('photos'),
  /** Where uploads are spooled: one directory per instance, swept of dead instances' files. */
  SPOOL_DIR: spoolDirEnv('trips'),
  /**
   * An upload's lease: a pending upload not renewed for this long is a dead process's, and the
   * sweeper (every half lease) removes its objects and spool files. Longer than any pause of a
   * live upload (it renews every third of it).
   */
  UPLOAD_LEASE_MS: z.coerce.number().int().min(1000).default(600_000),
  /**
   * Images decoded and encoded at once by this instance (stripped originals of uploads first,
   * then display variants), each with one sharp thread: the CPU photos may take.
   */
  IMAGE_CONCURRENCY: imageConcurrencyEnv,
  /**
   * Bound of this instance's cache of `GET /api/mytrips` bodies (bodies and bookkeeping),
   * bytes; 0 turns it off (every list is read from MongoDB).
   */
  /**
   * The owners of the account export's other areas (`GET /api/export`): each answers
   * its area at contracts' `INTERNAL_EXPORT_PATH`. The gateway's defaults.
   */
  AUTH_URL: z.url().default('http://127.0.0.1:4001'),
  BUCKETLIST_URL: z.url().default('http://127.0.0.1:4003'),
  SOCIAL_URL: z.url().default('http://127.0.0.1:4004'),
  JOURNAL_URL: z.url().default('http://127.0.0.1:4005'),
  CHAT_URL: z.url().default('http://127.0.0.1:4006'),
  /**
   * How long the import's parse of one GPX or KML file (at most `ImportLimits.xmlMaxBytes`,
   * some seconds of CPU) may take in its worker thread before the thread is stopped and the
   * import refused (a 400), ms.
   */
  IMPORT_XML_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /**
   * How long reading an imported file may take before anything is created (a ZIP opened, its
   * JSON documents read and parsed), ms; past it the import is refused (413 naming the time).
   * A GPX or KML file's parse is bounded by IMPORT_XML_TIMEOUT_MS instead.
   */
  IMPORT_READ_TIMEOUT_MS: z.coerce.number().int().min(1).default(ImportLimits.readMaxMs),
  /**
   * An import's lease (an import is one unit): a running import renews it every
   * third of it (a timer); one not renewed for this long is a dead process's, and a retry of
   * its Idempotency-Key takes it over at once, or the import sweeper (every half lease) removes
   * its hidden trips and their photos. Short, since a retry after a crash waits for it.
   */
  IMPORT_LEASE_MS: z.coerce.number().int().min(1000).default(30_000),
  MYTRIPS_CACHE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(32 * 1024 * 1024),
});
export type TripsEnv = z.infer<typeof TripsEnv>;
