import { z } from 'zod';

/** How to reach an S3 server (MinIO locally). */
export interface S3Connection {
  /** e.g. `http://127.0.0.1:9000` */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
}

/** The S3 env fields, to spread into a service's schema (like service-kit's `kafkaEnv`). */
export const s3Env = {
  S3_ENDPOINT: z.url(),
  S3_ACCESS_KEY: z.string().min(1),
  S3_SECRET_KEY: z.string().min(1),
  S3_REGION: z.string().min(1).default('us-east-1'),
};

/** An env field naming a bucket: a valid S3 bucket name, `defaultName` when unset. */
export function bucketEnv(defaultName: string) {
  return z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be a valid S3 bucket name')
    .default(defaultName);
}

/** The connection from env parsed with `s3Env`. */
export function s3Connection(env: {
  S3_ENDPOINT: string;
  S3_ACCESS_KEY: string;
  S3_SECRET_KEY: string;
  S3_REGION: string;
}): S3Connection {
  return {
    endpoint: env.S3_ENDPOINT,
    accessKey: env.S3_ACCESS_KEY,
    secretKey: env.S3_SECRET_KEY,
    region: env.S3_REGION,
  };
}

/**
 * The env field bounding image work per instance (`IMAGE_CONCURRENCY`): how many images an
 * `ImageQueue` decodes and encodes at once. Default 1: on a 2-core pod one core stays free for
 * requests while uploads are processed.
 */
export const imageConcurrencyEnv = z.coerce.number().int().min(1).max(64).default(1);
