import { buffer } from 'node:stream/consumers';
import { crc32 } from 'node:zlib';
import { fromBuffer, type Entry } from 'yauzl';

/**
 * Every entry of a ZIP in memory, by name, read by yauzl (an independent reader: sizes checked
 * against the central directory) with each entry's CRC-32 checked here (`zlib.crc32`: yauzl
 * checks none). For tests of archives a service writes (issue 22's account export); small
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
