import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { crc32 } from 'node:zlib';
import { fromBuffer, type Entry } from 'yauzl';
import yazl from 'yazl';

/**
 * Every entry of a ZIP in memory, by name, read by yauzl (an independent reader: sizes checked
 * against the central directory) with each entry's CRC-32 checked here (`zlib.crc32`: yauzl
 * checks none). For tests of archives a service writes (the account export); small
 * archives only.
 */
export function unzipEntries(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    fromBuffer(zip, { lazyEntries: true }, (err, file) => {
      if (err) return reject(err);
      const entries = new Map<string, Buffer>();
      file.on('entry', (entry: Entry) => {
        file.openReadStream(entry, (openErr, stream) => {
          if (openErr) return reject(openErr);
          buffer(stream).then((bytes) => {
            if (crc32(bytes) !== entry.crc32) {
              return reject(new Error(`${entry.fileName}: CRC-32 does not match its record`));
            }
            entries.set(entry.fileName, bytes);
            file.readEntry();
          }, reject);
        });
      });
      file.on('end', () => resolve(entries));
      file.on('error', reject);
      file.readEntry();
    });
  });
}

export interface ZipInput {
  name: string;
  data: Buffer;
  /** Deflate it (default true). */
  compress?: boolean;
}

/**
 * A ZIP of `entries` in memory, written by yazl (an independent writer: for archives a test
 * or a bench feeds a service, e.g. the trips import). Small archives.
 */
export async function zipBuffer(entries: ZipInput[]): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(e.data, e.name, { compress: e.compress ?? true });
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * A ZIP of `entries` streamed by yazl to the file `path`, each entry's bytes made when yazl
 * reaches it (large archives: never whole in memory).
 */
export async function zipFile(
  path: string,
  entries: { name: string; data: () => Buffer; compress?: boolean }[],
): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    zip.addReadStreamLazy(e.name, { compress: e.compress ?? true }, (cb) =>
      cb(null, Readable.from([e.data()])),
    );
  }
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await once(out, 'close');
}
