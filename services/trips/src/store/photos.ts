import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { Client, S3Error } from 'minio';

export interface PhotoStoreOptions {
  /** e.g. `http://127.0.0.1:9000` */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  bucket: string;
}

const MISSING = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket']);

function isMissing(err: unknown): boolean {
  return err instanceof S3Error && MISSING.has(err.code ?? '');
}

/**
 * Destination photos in a private MinIO (S3) bucket: no bucket policy, objects are only read
 * through trips' photo route after an owner-or-friend check.
 */
export class PhotoStore {
  constructor(
    private readonly client: Client,
    readonly bucket: string,
    private readonly region: string,
  ) {}

  static connect(options: PhotoStoreOptions): PhotoStore {
    const url = new URL(options.endpoint);
    const useSSL = url.protocol === 'https:';
    const client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      pathStyle: true,
      retryOptions: { maximumRetryCount: 2, baseDelayMs: 100, maximumDelayMs: 1000 },
    });
    return new PhotoStore(client, options.bucket, options.region);
  }

  /** Creates the bucket if missing. No bucket policy is set: it stays private. */
  async ensureBucket(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (err) {
      // another instance created it between our check and create
      const code = (err as { code?: string }).code;
      if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw err;
    }
  }

  /** Readiness: the bucket answers. */
  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) {
      throw new Error(`bucket ${this.bucket} does not exist`);
    }
  }

  async putBuffer(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.client.putObject(this.bucket, key, data, data.length, {
      'Content-Type': contentType,
    });
  }

  async putFile(key: string, path: string, size: number, contentType: string): Promise<void> {
    await this.client.putObject(this.bucket, key, createReadStream(path), size, {
      'Content-Type': contentType,
    });
  }

  /** Removes `keys` (missing ones are fine); throws if the store refused any. */
  async removeMany(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const results = await this.client.removeObjects(this.bucket, [...keys]);
    const failed = results.filter((r) => r?.Error && r.Error.Code !== 'NoSuchKey');
    if (failed.length > 0) {
      const first = failed[0]!.Error!;
      throw new Error(
        `could not remove ${failed.length} object(s), e.g. ${first.Key}: ${first.Code} ${first.Message}`,
      );
    }
  }

  /** Keys under `prefix`. */
  async list(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    for await (const item of this.client.listObjects(this.bucket, prefix, true)) {
      if (item.name) keys.push(item.name);
    }
    return keys;
  }

  /** The object's bytes as a stream, or null when it does not exist. */
  async get(key: string): Promise<Readable | null> {
    try {
      return await this.client.getObject(this.bucket, key);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }
}
