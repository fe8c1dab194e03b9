import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropBucket, testInfra, testS3Client, uniqueSuffix } from '@wayfarer/test-kit';
import { ObjectStore } from '../../src/object-store';
import { SOCKET_READ_BYTES } from '../../src/socket-read';

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('ObjectStore (real MinIO)', () => {
  const bucket = `t-storage-${uniqueSuffix()}`;
  let store: ObjectStore;
  let dir: string;

  beforeAll(async () => {
    const { s3 } = testInfra();
    store = ObjectStore.connect({ ...s3, region: 'us-east-1', bucket });
    dir = await mkdtemp(join(tmpdir(), 'wayfarer-storage-'));
  });
  afterAll(async () => {
    await dropBucket(bucket);
    await rm(dir, { recursive: true, force: true });
  });

  it('is not ready before its bucket exists', async () => {
    await expect(store.ping()).rejects.toThrow(`bucket ${bucket} does not exist`);
  });

  it('creates its bucket once, even when several instances race, and is then ready', async () => {
    const { s3 } = testInfra();
    const others = Array.from({ length: 4 }, () =>
      ObjectStore.connect({ ...s3, region: 'us-east-1', bucket }),
    );
    await Promise.all([store, ...others].map((s) => s.ensureBucket()));
    await store.ensureBucket();
    await expect(store.ping()).resolves.toBeUndefined();
  });

  it('keeps the bucket private: no policy, and no anonymous read', async () => {
    await store.put('private/note.txt', Buffer.from('the private words'), 'text/plain');
    await expect(testS3Client().getBucketPolicy(bucket)).rejects.toMatchObject({
      code: 'NoSuchBucketPolicy',
    });
    const res = await fetch(`${testInfra().s3.endpoint}/${bucket}/private/note.txt`);
    expect(res.status).toBe(403);
    const body = await res.text();
    expect(body).toContain('AccessDenied');
    expect(body).not.toContain('the private words');
  });

  it('stores bytes with their content type; stat and get give them back', async () => {
    const data = Buffer.from('\x89PNG not really');
    await store.put('a/one.png', data, 'image/png');
    expect(await store.stat('a/one.png')).toMatchObject({
      size: data.length,
      contentType: 'image/png',
    });
    const info = await store.stat('a/one.png');
    expect(info?.etag).toMatch(/^[0-9a-f]{32}$/);
    expect(info?.lastModified).toBeInstanceOf(Date);
    const stream = await store.get('a/one.png');
    expect(stream).not.toBeNull();
    expect(await bytesOf(stream!)).toEqual(data);
  });

  it('streams a file from disk', async () => {
    const path = join(dir, 'big.bin');
    const data = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    await writeFile(path, data);
    await store.putFile('a/big.bin', path, 'application/octet-stream');
    expect(await store.stat('a/big.bin')).toMatchObject({
      size: data.length,
      contentType: 'application/octet-stream',
    });
    expect((await bytesOf((await store.get('a/big.bin'))!)).equals(data)).toBe(true);
  });

  it('answers null for a missing object, on stat and get', async () => {
    expect(await store.stat('a/none.png')).toBeNull();
    expect(await store.get('a/none.png')).toBeNull();
  });

  it('readLarge: the same bytes as get, in pieces of up to a megabyte; null when missing; empty objects', async () => {
    const data = randomBytes(5 * 1024 * 1024 + 5);
    await store.put('large/photo.jpg', data, 'image/jpeg');
    await store.put('large/empty.jpg', Buffer.alloc(0), 'image/jpeg');
    const pieces = (await store.readLarge('large/photo.jpg'))!;
    const copies: Buffer[] = [];
    const buffers = new Set<ArrayBuffer>();
    for (let piece = await pieces.next(); piece; piece = await pieces.next()) {
      expect(piece.bytes.length).toBeLessThanOrEqual(SOCKET_READ_BYTES);
      copies.push(Buffer.from(piece.bytes));
      buffers.add(piece.bytes.buffer as ArrayBuffer);
      piece.release();
    }
    expect(Buffer.concat(copies).equals(data)).toBe(true);
    // the same few buffers, read into again
    expect(buffers.size).toBeLessThanOrEqual(3);
    expect(await (await store.readLarge('large/empty.jpg'))!.next()).toBeNull();
    expect(await store.readLarge('large/none.jpg')).toBeNull();
  });

  it('readLarge: reads no further while the consumer holds two pieces; the held bytes stay intact', async () => {
    const data = randomBytes(8 * 1024 * 1024);
    await store.put('large/slow.jpg', data, 'image/jpeg');
    const pieces = (await store.readLarge('large/slow.jpg'))!;
    const first = (await pieces.next())!;
    const second = (await pieces.next())!;
    const third = pieces.next();
    let thirdCame = false;
    void third.then(() => (thirdCame = true));
    // held two: nothing more is read, however long the consumer takes (here: as long as
    // reading the whole object again takes)
    const again = (await store.readLarge('large/slow.jpg'))!;
    for (let piece = await again.next(); piece; piece = await again.next()) piece.release();
    expect(thirdCame).toBe(false);
    expect(first.bytes.equals(data.subarray(0, first.bytes.length))).toBe(true);
    const at = first.bytes.length;
    expect(second.bytes.equals(data.subarray(at, at + second.bytes.length))).toBe(true);
    first.release();
    const next = (await third)!;
    const at3 = at + second.bytes.length;
    expect(next.bytes.equals(data.subarray(at3, at3 + next.bytes.length))).toBe(true);
    pieces.close();
    await expect(pieces.next()).rejects.toThrow(/closed/);
  });

  it('readLarge: a refused read is an error with its status, not an empty object', async () => {
    const { s3 } = testInfra();
    const wrong = ObjectStore.connect({
      ...s3,
      secretKey: 'not-the-secret',
      region: 'us-east-1',
      bucket,
    });
    await expect(wrong.readLarge('large/photo.jpg')).rejects.toMatchObject({
      name: 'ObjectReadError',
      status: 403,
    });
  });

  it('removes one object; removing a missing one is fine', async () => {
    await store.put('b/x.txt', Buffer.from('x'), 'text/plain');
    await store.remove('b/x.txt');
    expect(await store.stat('b/x.txt')).toBeNull();
    await expect(store.remove('b/x.txt')).resolves.toBeUndefined();
  });

  it('removes many objects, missing ones included, and nothing else', async () => {
    for (const key of ['c/1', 'c/2', 'c/3']) await store.put(key, Buffer.from(key), 'text/plain');
    await store.removeMany(['c/1', 'c/3', 'c/missing', 'c/1']);
    await store.removeMany([]);
    expect(await store.list('c/')).toEqual(['c/2']);
  });

  it('removes everything under a prefix, and only that', async () => {
    const keys = ['trip1/p1/original.jpg', 'trip1/p1/display.webp', 'trip1/p2/original.png'];
    for (const key of [...keys, 'trip10/p1/original.jpg', 'trip2/p1/original.jpg']) {
      await store.put(key, Buffer.from(key), 'image/jpeg');
    }
    expect((await store.list('trip1/')).sort()).toEqual([...keys].sort());
    expect(await store.removePrefix('trip1/')).toBe(3);
    expect(await store.list('trip1/')).toEqual([]);
    expect((await store.list('trip')).sort()).toEqual([
      'trip10/p1/original.jpg',
      'trip2/p1/original.jpg',
    ]);
    expect(await store.removePrefix('trip1/')).toBe(0);
    await expect(store.removePrefix('')).rejects.toThrow(/non-empty prefix/);
  });

  it('lists top-level prefixes in key order, in bounded pages after a given one', async () => {
    // the bucket also holds the other tests' keys: 'b/', 'c/', 'private/', 'trip10/', ...
    const pp = (prefixes: string[]) => prefixes.filter((p) => p.startsWith('pp'));
    for (const key of ['pp1/a/x', 'pp1/b/y', 'pp2/a', 'pp3/z/z/z', 'pp4/q']) {
      await store.put(key, Buffer.from(key), 'text/plain');
    }
    expect(pp(await store.listPrefixes({ max: 100 }))).toEqual(['pp1/', 'pp2/', 'pp3/', 'pp4/']);
    expect(await store.listPrefixes({ startAfter: 'pp1/', max: 2 })).toEqual(['pp2/', 'pp3/']);
    expect(pp(await store.listPrefixes({ startAfter: 'pp3/', max: 100 }))).toEqual(['pp4/']);
    expect(await store.listPrefixes({ startAfter: 'pp4/', max: 1 })).toEqual(['private/']);
  });
});
