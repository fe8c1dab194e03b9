/*
 * The records of a ZIP file (APPNOTE 6.3.10) as the account export writes it: entries one
 * after another, STORED or deflated, each name UTF-8; an entry whose CRC and size are known
 * only once its bytes are written (a photo streamed from MinIO) says so in its local header
 * (flag bit 3) and gives them in a data descriptor after its bytes. ZIP64 records where a size,
 * an offset or the count passes what 32 (16) bits hold. Pure: the use case writes the bytes.
 */

const LOCAL_HEADER = 0x04034b50;
const DATA_DESCRIPTOR = 0x08074b50;
const CENTRAL_HEADER = 0x02014b50;
const ZIP64_END = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const END = 0x06054b50;
const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
/** Bit 3: CRC and sizes in a data descriptor after the bytes; bit 11: the name is UTF-8. */
const FLAG_DESCRIPTOR = 0x0008;
const FLAG_UTF8 = 0x0800;
/** Made by: Unix (its mode in the external attributes), spec 4.5 (ZIP64). */
const MADE_BY = (3 << 8) | 45;
/** A regular file, rw-r--r--. */
const FILE_MODE = 0o100644;

export const STORED = 0;
export const DEFLATED = 8;

/** An entry as the central directory lists it. */
export interface ZipEntry {
  name: string;
  method: typeof STORED | typeof DEFLATED;
  crc: number;
  compressedSize: number;
  size: number;
  /** Where its local header starts. */
  offset: number;
  /** Its CRC and sizes came in a data descriptor. */
  descriptor: boolean;
  mtime: Date;
}

/** MS-DOS date and time (local time, two-second steps; 1980 at the earliest). */
function dosDateTime(date: Date): { time: number; date: number } {
  const year = Math.max(1980, date.getFullYear());
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/**
 * An entry's local header. With `descriptor`, CRC and sizes are zero here and follow the bytes
 * (`dataDescriptor`); else they are the entry's.
 */
export function localHeader(
  entry: Pick<
    ZipEntry,
    'name' | 'method' | 'crc' | 'compressedSize' | 'size' | 'descriptor' | 'mtime'
  >,
): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  const { time, date } = dosDateTime(entry.mtime);
  const header = Buffer.alloc(30);
  header.writeUInt32LE(LOCAL_HEADER, 0);
  header.writeUInt16LE(20, 4); // version needed: 2.0
  header.writeUInt16LE(FLAG_UTF8 | (entry.descriptor ? FLAG_DESCRIPTOR : 0), 6);
  header.writeUInt16LE(entry.method, 8);
  header.writeUInt16LE(time, 10);
  header.writeUInt16LE(date, 12);
  if (!entry.descriptor) {
    if (entry.compressedSize >= MAX32 || entry.size >= MAX32) {
      throw new RangeError(`${entry.name}: an entry given whole must be under 4 GiB`);
    }
    header.writeUInt32LE(entry.crc >>> 0, 14);
    header.writeUInt32LE(entry.compressedSize, 18);
    header.writeUInt32LE(entry.size, 22);
  }
  header.writeUInt16LE(name.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, name]);
}

/**
 * The data descriptor after a streamed entry's bytes: its CRC and sizes, 32-bit (the export's
 * photos are far below 4 GiB each: the upload's limit); a larger entry throws.
 */
export function dataDescriptor(crc: number, compressedSize: number, size: number): Buffer {
  if (compressedSize >= MAX32 || size >= MAX32) {
    throw new RangeError('a streamed entry of 4 GiB or more');
  }
  const record = Buffer.alloc(16);
  record.writeUInt32LE(DATA_DESCRIPTOR, 0);
  record.writeUInt32LE(crc >>> 0, 4);
  record.writeUInt32LE(compressedSize, 8);
  record.writeUInt32LE(size, 12);
  return record;
}

const writeUInt64LE = (buffer: Buffer, value: number, at: number) =>
  buffer.writeBigUInt64LE(BigInt(value), at);

/** One central directory header; ZIP64 extra field for what passes 32 bits (or all, `force`). */
function centralHeader(entry: ZipEntry, force: boolean): Buffer {
  const name = Buffer.from(entry.name, 'utf8');
  const big = (value: number) => force || value >= MAX32;
  const wide = [entry.size, entry.compressedSize, entry.offset].filter(big);
  const extra = Buffer.alloc(wide.length > 0 ? 4 + 8 * wide.length : 0);
  if (wide.length > 0) {
    extra.writeUInt16LE(0x0001, 0);
    extra.writeUInt16LE(8 * wide.length, 2);
    wide.forEach((value, i) => writeUInt64LE(extra, value, 4 + 8 * i));
  }
  const { time, date } = dosDateTime(entry.mtime);
  const header = Buffer.alloc(46);
  header.writeUInt32LE(CENTRAL_HEADER, 0);
  header.writeUInt16LE(MADE_BY, 4);
  header.writeUInt16LE(wide.length > 0 ? 45 : 20, 6);
  header.writeUInt16LE(FLAG_UTF8 | (entry.descriptor ? FLAG_DESCRIPTOR : 0), 8);
  header.writeUInt16LE(entry.method, 10);
  header.writeUInt16LE(time, 12);
  header.writeUInt16LE(date, 14);
  header.writeUInt32LE(entry.crc >>> 0, 16);
  header.writeUInt32LE(big(entry.compressedSize) ? MAX32 : entry.compressedSize, 20);
  header.writeUInt32LE(big(entry.size) ? MAX32 : entry.size, 24);
  header.writeUInt16LE(name.length, 28);
  header.writeUInt16LE(extra.length, 30);
  header.writeUInt16LE(0, 32); // comment
  header.writeUInt16LE(0, 34); // disk
  header.writeUInt16LE(0, 36); // internal attributes
  header.writeUInt32LE((FILE_MODE << 16) >>> 0, 38);
  header.writeUInt32LE(big(entry.offset) ? MAX32 : entry.offset, 42);
  return Buffer.concat([header, name, extra]);
}

/**
 * The archive's end: the central directory (written at `offset`), then the ZIP64 end record and
 * its locator when the count, the directory's size or its offset need them (or `forceZip64`:
 * the tests' way to read ZIP64 records back without writing 4 GiB), then the end record.
 */
export function centralDirectory(
  entries: readonly ZipEntry[],
  offset: number,
  forceZip64 = false,
): Buffer {
  const headers = Buffer.concat(entries.map((entry) => centralHeader(entry, forceZip64)));
  const size = headers.length;
  const zip64 = forceZip64 || entries.length >= MAX16 || size >= MAX32 || offset >= MAX32;
  const parts = [headers];
  if (zip64) {
    const record = Buffer.alloc(56);
    record.writeUInt32LE(ZIP64_END, 0);
    writeUInt64LE(record, 44, 4); // the record's size after this field
    record.writeUInt16LE(MADE_BY, 12);
    record.writeUInt16LE(45, 14);
    record.writeUInt32LE(0, 16); // this disk
    record.writeUInt32LE(0, 20); // the directory's disk
    writeUInt64LE(record, entries.length, 24);
    writeUInt64LE(record, entries.length, 32);
    writeUInt64LE(record, size, 40);
    writeUInt64LE(record, offset, 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(ZIP64_LOCATOR, 0);
    locator.writeUInt32LE(0, 4);
    writeUInt64LE(locator, offset + size, 8);
    locator.writeUInt32LE(1, 16); // disks
    parts.push(record, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END, 0);
  end.writeUInt16LE(0, 4);
  end.writeUInt16LE(0, 6);
  end.writeUInt16LE(zip64 ? MAX16 : entries.length, 8);
  end.writeUInt16LE(zip64 ? MAX16 : entries.length, 10);
  end.writeUInt32LE(zip64 ? MAX32 : size, 12);
  end.writeUInt32LE(zip64 ? MAX32 : offset, 16);
  end.writeUInt16LE(0, 20);
  parts.push(end);
  return Buffer.concat(parts);
}
