import { once } from 'node:events';
import { Readable, type Writable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import type { ObjectPieces } from '@wayfarer/storage';
import {
  centralDirectory,
  dataDescriptor,
  DEFLATED,
  localHeader,
  STORED,
  type ZipEntry,
} from '../domain/zip';

/** Where the archive's bytes go: `write(bytes, done)`, false when it wants a 'drain'. */
interface Sink {
  write(bytes: Buffer, done: () => void): boolean;
  /** Resolves on the sink's next 'drain' (or when the download stops). */
  drained(): Promise<void>;
}

/** What the download writes, in order: the small entries whole, then each streamed one. */
export interface ZipContent {
  /** Entries given whole (JSON, the per-trip files): deflated. */
  files: readonly { name: string; data: Buffer }[];
  /** Entries streamed after them (the photos): STORED, opened one at a time. */
  streamed: readonly { name: string }[];
  /**
   * Opens streamed entry `i` (null: it is gone, an empty entry); called in order, the next one
   * while the one before is written (a read ahead).
   */
  open(i: number): Promise<ObjectPieces | null>;
  mtime: Date;
  /** ZIP64 records even where 32 bits would do (the tests'). */
  forceZip64?: boolean;
}

/**
 * A ZIP written as it is downloaded (the account export's), piece by piece. Piped (Fastify's
 * `reply.send` pipes a stream into the response), it writes straight into the destination:
 * each piece of a photo is written as it was read (`ObjectPieces`: no copy) and given back to
 * its read once the socket has taken it (the write's callback), and the next piece is written
 * only after a 'drain' (the client's pace, up to MinIO's). No stream stands between MinIO's
 * socket and the client's. Read any other way (`read()`, `for await`), it pushes copies.
 *
 * Destroyed (the client left: Fastify destroys the stream it piped), it closes the photo being
 * read and opens nothing more; an `open` or a read failing midway destroys it with the error
 * (the client sees a broken transfer, never a short valid ZIP).
 */
export class ZipDownload extends Readable {
  private started = false;
  private finished = false;
  private current: ObjectPieces | null = null;
  private pushWaiter: (() => void) | null = null;
  private readonly stopListeners = new Set<() => void>();
  /** The reads opened and not yet written (the one read ahead). */
  private readonly opening = new Map<number, Promise<ObjectPieces | null>>();

  constructor(
    private readonly content: ZipContent,
    private readonly onError: (err: Error, entry?: string) => void,
  ) {
    super();
  }

  /** The bytes are written into `dest` itself (see the class). */
  override pipe<T extends NodeJS.WritableStream>(dest: T, options?: { end?: boolean }): T {
    const out = dest as unknown as Writable;
    this.start(
      {
        write: (bytes, done) => out.write(bytes, done),
        drained: () => this.until(once(out, 'drain').then(() => undefined)),
      },
      () => {
        if (options?.end !== false) out.end();
        this.resume(); // (nothing was pushed: this lets 'end' through)
      },
    );
    return dest;
  }

  override _read(): void {
    if (!this.started) {
      this.start(
        {
          write: (bytes, done) => {
            const more = this.push(Buffer.from(bytes));
            done();
            return more;
          },
          drained: () => this.until(new Promise<void>((resolve) => (this.pushWaiter = resolve))),
        },
        () => undefined,
      );
    }
    const waiter = this.pushWaiter;
    this.pushWaiter = null;
    waiter?.();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.current?.close();
    this.current = null;
    for (const pending of this.opening.values()) {
      pending.then(
        (pieces) => pieces?.close(),
        () => undefined,
      );
    }
    this.opening.clear();
    for (const stop of this.stopListeners) stop();
    callback(err);
  }

  /** `promise`, or resolved at once when the download stops meanwhile. */
  private until(promise: Promise<void>): Promise<void> {
    return new Promise((resolve) => {
      const stop = () => resolve();
      this.stopListeners.add(stop);
      promise.then(resolve, resolve).finally(() => this.stopListeners.delete(stop));
    });
  }

  private start(sink: Sink, end: () => void): void {
    this.started = true;
    this.write(sink).then(
      () => {
        if (this.destroyed) return;
        this.finished = true;
        this.push(null);
        end();
      },
      (err: unknown) => {
        if (this.destroyed) return;
        const error = err instanceof Error ? err : new Error(String(err));
        this.destroy(error);
      },
    );
  }

  /** Whether the whole archive was written (else it was stopped or failed). */
  get complete(): boolean {
    return this.finished;
  }

  private async write(sink: Sink): Promise<void> {
    const { content } = this;
    const entries: ZipEntry[] = [];
    let offset = 0;
    const put = async (bytes: Buffer, done: () => void = () => undefined) => {
      offset += bytes.length;
      if (!sink.write(bytes, done)) await sink.drained();
    };

    // the small entries, deflated, in one write
    const head: Buffer[] = [];
    let headBytes = 0;
    for (const file of content.files) {
      const data = deflateRawSync(file.data);
      const entry: ZipEntry = {
        name: file.name,
        method: DEFLATED,
        crc: crc32(file.data),
        compressedSize: data.length,
        size: file.data.length,
        offset: headBytes,
        descriptor: false,
        mtime: content.mtime,
      };
      entries.push(entry);
      const header = localHeader(entry);
      head.push(header, data);
      headBytes += header.length + data.length;
    }
    await put(Buffer.concat(head));

    // the streamed ones, STORED, CRC and size after their bytes
    const { opening } = this;
    const open = (i: number) => {
      if (i >= content.streamed.length || this.destroyed) return;
      const pending = content.open(i);
      pending.then(
        (pieces) => {
          if (this.destroyed) pieces?.close(); // (stopped meanwhile)
        },
        () => undefined, // answered when its turn comes
      );
      opening.set(i, pending);
    };
    open(0);
    for (const [i, { name }] of content.streamed.entries()) {
      if (this.destroyed) return;
      const pending = opening.get(i)!;
      opening.delete(i);
      open(i + 1);
      let pieces: ObjectPieces | null;
      try {
        pieces = await pending;
      } catch (err) {
        this.onError(err as Error, name);
        throw err;
      }
      if (this.destroyed) {
        pieces?.close();
        return;
      }
      this.current = pieces;
      const entry: ZipEntry = {
        name,
        method: STORED,
        crc: 0,
        compressedSize: 0,
        size: 0,
        offset,
        descriptor: true,
        mtime: content.mtime,
      };
      await put(localHeader(entry));
      try {
        for (let piece = pieces && (await pieces.next()); piece; piece = await pieces!.next()) {
          if (this.destroyed) return;
          entry.crc = crc32(piece.bytes, entry.crc);
          entry.size += piece.bytes.length;
          await put(piece.bytes, piece.release);
        }
      } catch (err) {
        if (this.destroyed) return; // (the close of a stopped download's read)
        this.onError(err as Error, name);
        throw err;
      }
      this.current = null;
      if (this.destroyed) return;
      entry.compressedSize = entry.size;
      entries.push(entry);
      await put(dataDescriptor(entry.crc, entry.compressedSize, entry.size));
    }
    if (this.destroyed) return;
    await put(centralDirectory(entries, offset, content.forceZip64));
  }
}
