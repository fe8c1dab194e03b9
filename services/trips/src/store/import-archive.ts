import { createWriteStream } from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { ImportLimits, ImportMessages } from '@wayfarer/contracts';
import { ImportLimitError, InvalidTripError } from '../domain/errors';
import { entryProblem } from '../domain/import/archive';
import type { ReadDeadline } from '../domain/import/bounds';

/**
 * A ZIP to import from, read from its spooled file with yauzl (maintained; random access
 * through the central directory, so only the entries needed are inflated, one at a time, as
 * streams). Opening it lists every entry and refuses the archive as a whole (a 400, before
 * anything is read or created) when it has more than `ImportLimits.zipEntriesMax` entries, an
 * unsafe name (yauzl's `strictFileNames` and `entryProblem`), a symbolic link, an encrypted
 * entry, a ZIP bomb's ratio, or more than `ImportLimits.zipTotalMaxBytes` stated in all. While
 * inflating, the bytes are counted against the caller's bound and the archive's total, and
 * yauzl checks them against the stated size (`validateEntrySizes`): a lying header is caught
 * at the first byte too many. The JSON documents read whole (`readBytes`) count against
 * `ImportLimits.documentsMaxBytes` together, and every piece inflated checks the import's
 * `ReadDeadline` while it has one (refused with the limit named).
 */
export class ImportArchive {
  /** Inflated bytes read so far, all entries together. */
  private inflated = 0;
  /** Inflated bytes of the documents read whole so far. */
  private documents = 0;
  /** The reading's deadline (`ImportLimits.readMaxMs`), until the trips are being made. */
  private deadline: ReadDeadline | null = null;

  private constructor(
    private readonly zip: ZipFile,
    private readonly byName: Map<string, Entry>,
  ) {}

  /** Checks `deadline` with every piece inflated from now on (null: no more). */
  setDeadline(deadline: ReadDeadline | null): void {
    this.deadline = deadline;
  }

  /** Every file entry (directories left out) with the size the ZIP states for it. */
  get entries(): Map<string, { bytes: number }> {
    return new Map([...this.byName].map(([name, e]) => [name, { bytes: e.uncompressedSize }]));
  }

  static async open(path: string): Promise<ImportArchive> {
    let zip: ZipFile;
    try {
      zip = await new Promise<ZipFile>((resolve, reject) =>
        yauzl.open(
          path,
          { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
          (err, zipfile) => (err ? reject(err) : resolve(zipfile)),
        ),
      );
    } catch {
      throw new InvalidTripError(ImportMessages.badZip);
    }
    try {
      if (zip.entryCount > ImportLimits.zipEntriesMax) {
        throw unsafe(`it has more than ${ImportLimits.zipEntriesMax} entries`);
      }
      const byName = await listEntries(zip);
      return new ImportArchive(zip, byName);
    } catch (err) {
      zip.close();
      throw err;
    }
  }

  /**
   * An entry read whole (a JSON document), refused past `maxBytes`, and past what is left of
   * `ImportLimits.documentsMaxBytes` for all of an import's documents (its stated size first,
   * then its bytes as they inflate).
   */
  async readBytes(name: string, maxBytes: number): Promise<Buffer> {
    const left = ImportLimits.documentsMaxBytes - this.documents;
    const stated = this.byName.get(name)?.uncompressedSize ?? 0;
    if (stated > left) throw new ImportLimitError(ImportMessages.documentsTooLarge);
    const chunks: Buffer[] = [];
    const documents = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        this.documents += chunk.length;
        if (this.documents > ImportLimits.documentsMaxBytes) {
          return callback(new ImportLimitError(ImportMessages.documentsTooLarge));
        }
        callback(null, chunk);
      },
    });
    await pipeline(
      await this.stream(name, maxBytes),
      documents,
      async function (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) chunks.push(chunk);
      },
    );
    return Buffer.concat(chunks);
  }

  /** An entry streamed to the file `path` (a photo to the request's spool directory). */
  async extract(name: string, path: string, maxBytes: number): Promise<void> {
    await pipeline(await this.stream(name, maxBytes), createWriteStream(path));
  }

  close(): void {
    this.zip.close();
  }

  private async stream(name: string, maxBytes: number): Promise<Readable> {
    const entry = this.byName.get(name);
    if (!entry) throw new InvalidTripError(ImportMessages.badZip);
    if (entry.uncompressedSize > maxBytes) throw unsafe(`the entry "${name}" is too large`);
    let source: Readable;
    try {
      source = await new Promise<Readable>((resolve, reject) =>
        this.zip.openReadStream(entry, (err, stream) => (err ? reject(err) : resolve(stream))),
      );
    } catch {
      throw new InvalidTripError(ImportMessages.badZip);
    }
    let bytes = 0;
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        bytes += chunk.length;
        this.inflated += chunk.length;
        if (bytes > maxBytes) {
          return callback(unsafe(`the entry "${name}" inflates past its bound`));
        }
        if (this.inflated > ImportLimits.zipTotalMaxBytes) {
          return callback(unsafe(ImportMessages.zipTooLarge));
        }
        try {
          this.deadline?.check();
        } catch (err) {
          return callback(err as Error);
        }
        callback(null, chunk);
      },
    });
    // a corrupt entry or a size that lies (yauzl) is the archive's fault: a 400
    source.on('error', () => counter.destroy(new InvalidTripError(ImportMessages.badZip)));
    // and whatever ends the read (a bound, the reader failing) ends the inflating too, so yauzl
    // closes the archive's file once `close()` is called
    counter.once('close', () => source.destroy());
    return source.pipe(counter);
  }
}

const unsafe = (reason: string) => new InvalidTripError(ImportMessages.unsafeZip(reason));

/** Lists the archive's entries, refusing it at the first unsafe one. */
async function listEntries(zip: ZipFile): Promise<Map<string, Entry>> {
  const byName = new Map<string, Entry>();
  let stated = 0;
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      const problem = entryProblem({
        name: entry.fileName,
        mode: (entry.externalFileAttributes >>> 16) & 0xffff,
        compressedBytes: entry.compressedSize,
        uncompressedBytes: entry.uncompressedSize,
        encrypted: entry.isEncrypted(),
      });
      if (problem) return reject(unsafe(problem));
      stated += entry.uncompressedSize;
      if (stated > ImportLimits.zipTotalMaxBytes) {
        return reject(unsafe(ImportMessages.zipTooLarge));
      }
      if (!entry.fileName.endsWith('/')) byName.set(entry.fileName, entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve());
    // yauzl's own refusals while listing: a bad name (absolute, `..`, backslash), a corrupt
    // directory
    zip.once('error', (err: Error) =>
      reject(
        /file ?name|relative path|absolute path/i.test(err.message)
          ? unsafe(`an entry name is not a safe relative path (${err.message})`)
          : new InvalidTripError(ImportMessages.badZip),
      ),
    );
    zip.readEntry();
  });
  return byName;
}
