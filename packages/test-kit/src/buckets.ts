import { Client, S3Error } from 'minio';
import { testInfra } from './infra';

/** A minio client for the test infra's S3 server (MinIO). */
export function testS3Client(): Client {
  const { s3 } = testInfra();
  const url = new URL(s3.endpoint);
  return new Client({
    endPoint: url.hostname,
    port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80),
    useSSL: url.protocol === 'https:',
    accessKey: s3.accessKey,
    secretKey: s3.secretKey,
    pathStyle: true,
  });
}

/** Removes a test's bucket and everything in it (a missing bucket is fine). */
export async function dropBucket(bucket: string): Promise<void> {
  const client = testS3Client();
  try {
    const keys: string[] = [];
    for await (const item of client.listObjects(bucket, '', true)) {
      if (item.name) keys.push(item.name);
    }
    if (keys.length > 0) await client.removeObjects(bucket, keys);
    await client.removeBucket(bucket);
  } catch (err) {
    if (!(err instanceof S3Error && err.code === 'NoSuchBucket')) throw err;
  }
}
