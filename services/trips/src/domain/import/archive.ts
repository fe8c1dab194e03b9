import { ImportLimits } from '@wayfarer/contracts';

/** What the central directory of a ZIP says about one entry. */
export interface ZipEntryInfo {
  name: string;
  /** Unix mode (the high half of the external attributes; 0 when the ZIP was made elsewhere). */
  mode: number;
  compressedBytes: number;
  uncompressedBytes: number;
  encrypted: boolean;
}

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/**
 * Why an entry makes the whole archive unsafe to read, or null. yauzl already refuses absolute
 * names, `..` and backslashes while listing (`strictFileNames`); this says it again in our own
 * words and adds what yauzl leaves to us: symbolic links, encryption, and a ZIP bomb's marks
 * (an entry over the import's inflated total on its own, or inflating more than
 * `ImportLimits.zipRatioMax` times its compressed size). The sizes here are the ones the ZIP
 * states; the bytes are counted again while inflating (`store/import-archive.ts`).
 */
export function entryProblem(entry: ZipEntryInfo): string | null {
  const { name } = entry;
  if (name.startsWith('/') || /^[a-z]:/i.test(name) || name.includes('\\')) {
    return `the entry "${name}" has an absolute path or a backslash`;
  }
  if (name.split('/').some((segment) => segment === '..')) {
    return `the entry "${name}" points outside the archive`;
  }
  // eslint-disable-next-line no-control-regex -- control characters in a name are refused
  if (/[\u0000-\u001f]/.test(name)) return 'an entry name has control characters';
  if ((entry.mode & S_IFMT) === S_IFLNK) return `the entry "${name}" is a symbolic link`;
  if (entry.encrypted) return `the entry "${name}" is encrypted`;
  const ratio = entry.uncompressedBytes / Math.max(1, entry.compressedBytes);
  if (
    entry.uncompressedBytes > ImportLimits.zipRatioFromBytes &&
    ratio > ImportLimits.zipRatioMax
  ) {
    return `the entry "${name}" is compressed ${Math.round(ratio)} to 1, like a ZIP bomb`;
  }
  if (entry.uncompressedBytes > ImportLimits.zipTotalMaxBytes) {
    return `the entry "${name}" is too large once uncompressed (an import may unpack at most ${ImportLimits.zipTotalMaxBytes / (1024 * 1024)} MB)`;
  }
  return null;
}
