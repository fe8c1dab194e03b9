import { randomBytes } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ObjectPiece, ObjectPieces } from '@wayfarer/storage';
import { unzipEntries } from '@wayfarer/test-kit/zip';
import { ZipDownload, type ZipContent } from '../../src/usecases/zip-download';

// The account export's ZIP writer (usecases/zip-download.ts, records in domain/zip.ts), read back
// by yauzl (test-kit's unzipEntries: every CRC checked too). The pieces come from memory here,
// lent the way storage's readLarge lends them: one buffer, overwritten as soon as it is given
// back, so a piece released before the destination took it would show as wrong bytes.

/**
 * `data` in pieces of `size` bytes through ONE buffer, scribbled over on each release; the next
 * piece waits for the release (as readLarge's reading waits for a free buffer).
 */
function lentPieces(data: Buffer, size: number, fail?: Error): ObjectPieces {
  const lent = Buffer.alloc(size);
  let at = 0;
  let freed: Promise<void> = Promise.resolve();
  return {
    next: async () => {
      await freed;
      if (at >= data.length) {
        if (fail) throw fail;
        return null;
      }
      const n = data.copy(lent, 0, at, Math.min(at + size, data.length));
      at += n;
      let release = () => undefined as void;
      freed = new Promise((resolve) => {
        release = () => {
          lent.fill(0xee);
          resolve();
        };
      });
      return { bytes: lent.subarray(0, n), release };
    },
    close: () => undefined,
  };
}

/** A destination that takes each chunk a while later (a copy then), as a slow socket would. */
function slowSink(): { sink: Writable; bytes: () => Buffer; done: Promise<void> } {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    highWaterMark: 1024,
    write(chunk: Buffer, _encoding, callback) {
      setImmediate(() => {
        chunks.push(Buffer.from(chunk));
        callback();
      });
    },
  });
  const done = new Promise<void>((resolve, reject) => {
    sink.on('finish', resolve);
    sink.on('error', reject);
  });
  return { sink, bytes: () => Buffer.concat(chunks), done };
}

const mtime = new Date(2026, 4, 1, 12, 30, 10);
const photos = [randomBytes(300_000), randomBytes(7), Buffer.alloc(0), randomBytes(65_536)];
const content = (overrides: Partial<ZipContent> = {}): ZipContent => ({
  files: [
    { name: 'wayfarer-export/manifest.json', data: Buffer.from('{"a":"✓ Zürich 東京"}') },
    { name: 'wayfarer-export/trips.json', data: Buffer.from('[]'.repeat(5000)) },
  ],
  streamed: photos.map((_, i) => ({ name: `wayfarer-export/photos/t/${i}.jpg` })),
  open: (i) => Promise.resolve(lentPieces(photos[i]!, 4096)),
  mtime,
  ...overrides,
});
const noErrors = (err: Error) => {
  throw err;
};

async function pipedBytes(download: ZipDownload): Promise<Buffer> {
  const { sink, bytes, done } = slowSink();
  download.pipe(sink);
  await done;
  return bytes();
}

describe('ZipDownload', () => {
  it('writes every entry whole when piped into a slow destination (no piece reused too early)', async () => {
    const zip = await pipedBytes(new ZipDownload(content(), noErrors));
    const files = await unzipEntries(zip);
    expect([...files.keys()]).toEqual([
      'wayfarer-export/manifest.json',
      'wayfarer-export/trips.json',
      ...photos.map((_, i) => `wayfarer-export/photos/t/${i}.jpg`),
    ]);
    expect(files.get('wayfarer-export/manifest.json')!.toString()).toBe('{"a":"✓ Zürich 東京"}');
    photos.forEach((photo, i) =>
      expect(files.get(`wayfarer-export/photos/t/${i}.jpg`)!.equals(photo)).toBe(true),
    );
    // the JSON is deflated, the photos STORED
    expect(zip.length).toBeLessThan(10_000 + photos.reduce((n, p) => n + p.length, 0) + 2000);
  });

  it('gives the same archive when read as a stream', async () => {
    const piped = await pipedBytes(new ZipDownload(content(), noErrors));
    const read = await buffer(new ZipDownload(content(), noErrors));
    expect(read.equals(piped)).toBe(true);
  });

  it('writes ZIP64 records that a reader takes (forced: 4 GiB is too long for a test)', async () => {
    const zip = await pipedBytes(new ZipDownload(content({ forceZip64: true }), noErrors));
    const zip64End = Buffer.from([0x50, 0x4b, 0x06, 0x06]);
    const zip64Locator = Buffer.from([0x50, 0x4b, 0x06, 0x07]);
    expect(zip.includes(zip64End)).toBe(true);
    expect(zip.includes(zip64Locator)).toBe(true);
    const files = await unzipEntries(zip);
    expect(files.size).toBe(2 + photos.length);
    photos.forEach((photo, i) =>
      expect(files.get(`wayfarer-export/photos/t/${i}.jpg`)!.equals(photo)).toBe(true),
    );
  });

  it('writes a gone photo (null) as an empty entry', async () => {
    const zip = await pipedBytes(
      new ZipDownload(
        content({
          open: (i) => Promise.resolve(i === 1 ? null : lentPieces(photos[i]!, 4096)),
        }),
        noErrors,
      ),
    );
    const files = await unzipEntries(zip);
    expect(files.get('wayfarer-export/photos/t/1.jpg')!.length).toBe(0);
    expect(files.get('wayfarer-export/photos/t/3.jpg')!.equals(photos[3]!)).toBe(true);
  });

  it('fails the download (never a short valid ZIP) when a read fails midway, and says which entry', async () => {
    const failures: string[] = [];
    const download = new ZipDownload(
      content({
        open: (i) =>
          Promise.resolve(
            lentPieces(photos[i]!, 4096, i === 0 ? new Error('MinIO went away') : undefined),
          ),
      }),
      (_err, entry) => failures.push(entry ?? ''),
    );
    const { sink } = slowSink();
    const errored = new Promise<Error>((resolve) => download.once('error', resolve));
    download.pipe(sink);
    expect((await errored).message).toBe('MinIO went away');
    expect(failures).toEqual(['wayfarer-export/photos/t/0.jpg']);
    expect(download.complete).toBe(false);
  });

  it('opens nothing more once destroyed, and closes the read under way and the one read ahead', async () => {
    const opened: number[] = [];
    let closed = 0;
    let release: () => void = () => undefined;
    const download = new ZipDownload(
      content({
        open: (i) => {
          opened.push(i);
          return Promise.resolve({
            // the first read never ends: the client leaves while it is written
            next: () =>
              new Promise<ObjectPiece | null>((resolve) => {
                release = () => resolve(null);
              }),
            close: () => {
              closed++;
              release();
            },
          });
        },
      }),
      noErrors,
    );
    const { sink } = slowSink();
    download.pipe(sink);
    await expect.poll(() => opened.length).toBe(2);
    download.destroy();
    // both closed: the one being written and the one read ahead; nothing opened after
    await expect.poll(() => closed).toBe(2);
    expect(opened).toEqual([0, 1]);
    expect(download.complete).toBe(false);
  });
});
