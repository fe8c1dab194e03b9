import { createRequire } from 'node:module';
import { crc32 } from 'node:zlib';
import yazl from 'yazl';

/**
 * yazl's ZipFile with Node's native CRC-32. yazl (3.3.1, its latest) sums every byte with
 * `buffer-crc32`, plain JavaScript: ~110 MB/s on this machine, the account export's bottleneck
 * (a MinIO read is faster). `zlib.crc32` (Node >= 22.2, native) gives the same sums (CRC-32,
 * IEEE, chained by the previous value) at ~2 GB/s. yazl looks `crc32.unsigned` up on each call,
 * so replacing it on the module instance yazl loaded speeds up every archive this process
 * writes; the export's tests read the archives back with a reader that checks each CRC.
 */
const fromYazl = createRequire(createRequire(import.meta.url).resolve('yazl'));
const bufferCrc32 = fromYazl('buffer-crc32') as {
  unsigned: (data: Buffer, previous?: number) => number;
};
bufferCrc32.unsigned = (data, previous = 0) => crc32(data, previous);

export const { ZipFile } = yazl;
