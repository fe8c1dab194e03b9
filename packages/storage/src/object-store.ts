import { createReadStream, createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Client, S3Error } from 'minio';
import { storageTimer } from '@wayfarer/service-kit';
import type { S3Connection } from './config';
import { getOverSocket, piecesOfStream, type ObjectPieces } from './socket-read';

export interface ObjectStoreOptions extends S3Connection {
  bucket: string;
}

/** What `stat` tells about a stored object. */
export interface ObjectInfo {
  size: number;
  /** The content type it was stored with, or null when none was. */
  contentType: string | null;
  etag: string;
  lastModified: Date;
}

const MISSING = new Set(['NoSuchKey', 'NotFound', 'NoSuchBucket']);

/** Each call's time, in `wayfarer_storage_operation_duration_seconds{operation, outcome}`. */
const timed = storageTimer();

function isMissing(err: unknown): boolean {
  return err instanceof S3Error && MISSING.has(err.code ?? '');
}

/** Makes a minio client for an S3 endpoint URL (path-style, small retry budget). */
export function createS3Client(options: S3Connection): Client {
  const url = new URL(options.endpoint);
  const useSSL = url.protocol === 'https:';
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: options.accessKey,
    secretKey: options.secretKey,
    region: options.region,
    pathStyle: true,
    retryOptions: { maximumRetryCount: 2, baseDelayMs: 100, maximumDelayMs: 1000 },
  });
}

/**
 * One private bucket of a MinIO (S3) server. No bucket policy is ever set, so nothing in it
 * is readable without credentials: services serve objects through their own routes after
 * their own access checks. What the keys mean is the service's business.
 */
export class ObjectStore {
  constructor(
    private readonly client: Client,
    readonly bucket: string,
    private readonly region: string,
    /** The endpoint speaks plain HTTP (`getLarge` reads over a socket of its own). */
    private readonly plainHttp = false,
  ) {}

  static connect(options: ObjectStoreOptions): ObjectStore {
    return new ObjectStore(
      createS3Client(options),
      options.bucket,
      options.region,
      new URL(options.endpoint).protocol === 'http:',
    );
  }

  /** Creates the bucket if missing, private (no bucket policy). Safe to race with others. */
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

  /** Readiness check: the server answers and the bucket exists. */
  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) {
      throw new Error(`bucket ${this.bucket} does not exist`);
    }
  }

  /** Stores `data` at `key` with its content type (replacing any object there). */
  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await timed('put', () =>
      this.client.putObject(this.bucket, key, data, data.length, {
        'Content-Type': contentType,
      }),
    );
  }

  /** Stores the file at `path` (streamed, not read into memory) at `key`. */
  async putFile(key: string, path: string, contentType: string): Promise<void> {
    const { size } = await stat(path);
    await timed('put', () =>
      this.client.putObject(this.bucket, key, createReadStream(path), size, {
        'Content-Type': contentType,
      }),
    );
  }

  /** The object's size and type, or null when it does not exist. */
  stat(key: string): Promise<ObjectInfo | null> {
    return timed('stat', () => this.statUntimed(key));
  }

  private async statUntimed(key: string): Promise<ObjectInfo | null> {
    try {
      const info = await this.client.statObject(this.bucket, key);
      const type: unknown = info.metaData['content-type'];
      return {
        size: info.size,
        contentType: typeof type === 'string' ? type : null,
        etag: info.etag,
        lastModified: info.lastModified,
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  /** The object's bytes as a stream, or null when it does not exist. */
  async get(key: string): Promise<Readable | null> {
    // (the time to the first bytes: the stream is the caller's)
    return timed('get', async () => {
      try {
        return await this.client.getObject(this.bucket, key);
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    });
  }

  /**
   * The object's bytes for a long sequential read (the account export streams gigabytes
   * through it), null when it does not exist: read over a connection of its own with a signed
   * URL, a megabyte at a time into three buffers used again, lent to the consumer piece by
   * piece (`socket-read.ts`: about half the CPU a byte of minio-js' response, and no garbage
   * per piece). An HTTPS endpoint falls back to `get`'s stream.
   */
  async readLarge(key: string): Promise<ObjectPieces | null> {
    if (!this.plainHttp) {
      const stream = await this.get(key);
      return stream && piecesOfStream(stream);
    }
    return timed('get', async () => {
      const url = await this.client.presignedGetObject(this.bucket, key, 15 * 60);
      return getOverSocket(new URL(url), { idleTimeoutMs: 60_000 });
    });
  }

  /**
   * Writes the object at `key` to the file at `path` (streamed, not held in memory); false when
   * the object does not exist (no file is written).
   */
  async download(key: string, path: string): Promise<boolean> {
    const stream = await this.get(key);
    if (!stream) return false;
    await pipeline(stream, createWriteStream(path));
    return true;
  }

  /** Removes one object (a missing one is fine). */
  async remove(key: string): Promise<void> {
    await timed('remove', () => this.client.removeObject(this.bucket, key));
  }

  /** Removes `keys` (missing ones are fine); throws if the store refused any. */
  async removeMany(keys: readonly string[]): Promise<void> {
    if (keys.length === 0) return;
    const results = await timed('remove_many', () =>
      this.client.removeObjects(this.bucket, [...new Set(keys)]),
    );
    const failed = results.filter((r) => r?.Error && r.Error.Code !== 'NoSuchKey');
    if (failed.length > 0) {
      const first = failed[0]!.Error!;
      throw new Error(
        `could not remove ${failed.length} object(s), e.g. ${first.Key}: ${first.Code} ${first.Message}`,
      );
    }
  }

  /**
   * Removes every object whose key starts with `prefix` (not empty: that would be the whole
   * bucket); returns how many there were.
   */
  async removePrefix(prefix: string): Promise<number> {
    if (prefix === '') throw new Error('removePrefix needs a non-empty prefix');
    const keys = await this.list(prefix);
    await this.removeMany(keys);
    return keys.length;
  }

  /**
   * The top-level "folders" of the bucket (`<name>/`, the part of each key up to its first
   * `/`), in key order, after `startAfter` (exclusive), at most `max` of them.
   */
  async listPrefixes(options: { startAfter?: string; max: number }): Promise<string[]> {
    const prefixes: string[] = [];
    const stream = this.client.listObjectsV2(this.bucket, '', false, options.startAfter ?? '');
    try {
      for await (const item of stream as AsyncIterable<{ prefix?: string }>) {
        if (!item.prefix || (options.startAfter && item.prefix <= options.startAfter)) continue;
        prefixes.push(item.prefix);
        if (prefixes.length >= options.max) break;
      }
    } finally {
      stream.destroy();
    }
    return prefixes;
  }

  /** Keys under `prefix` (all keys by default). */
  async list(prefix = ''): Promise<string[]> {
    const keys: string[] = [];
    for await (const item of this.client.listObjects(this.bucket, prefix, true)) {
      if (item.name) keys.push(item.name);
    }
    return keys;
  }
}
