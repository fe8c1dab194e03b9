import type { Readable } from 'node:stream';
import { Client, S3Error } from 'minio';

export interface AvatarStoreOptions {
  /** e.g. `http://127.0.0.1:9000` */
  endpoint: string;
  accessKey: string;
  secretKey: string;
  region: string;
  bucket: string;
}

export interface StoredAvatar {
  stream: Readable;
  size: number;
}

const MISSING = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket']);

function isMissing(err: unknown): boolean {
  return err instanceof S3Error && MISSING.has(err.code ?? '');
}

/** Profile pictures in a private MinIO (S3) bucket. Objects are only read through auth. */
export class AvatarStore {
  constructor(
    private readonly client: Client,
    readonly bucket: string,
    private readonly region: string,
  ) {}

  static connect(options: AvatarStoreOptions): AvatarStore {
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
    return new AvatarStore(client, options.bucket, options.region);
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

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.client.putObject(this.bucket, key, data, data.length, {
      'Content-Type': contentType,
    });
  }

  async remove(key: string): Promise<void> {
    await this.client.removeObject(this.bucket, key);
  }

  /** The object's bytes as a stream, or null when it does not exist. */
  async get(key: string): Promise<StoredAvatar | null> {
    try {
      const stat = await this.client.statObject(this.bucket, key);
      const stream = await this.client.getObject(this.bucket, key);
      return { stream, size: stat.size };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  /** Keys under `prefix` (used by tests and maintenance). */
  async list(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    for await (const item of this.client.listObjects(this.bucket, prefix, true)) {
      if (item.name) keys.push(item.name);
    }
    return keys;
  }
}
