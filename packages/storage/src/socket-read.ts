import { connect } from 'node:net';
import type { Readable } from 'node:stream';

/** How much one read from the socket takes at most (the kernel hands over what it holds). */
export const SOCKET_READ_BYTES = 1024 * 1024;
/** Read buffers a read owns: pieces its consumer holds, plus the one read into next. */
const BUFFERS_PER_READ = 3;
/** A status line and headers longer than this are not an object store's answer. */
const MAX_HEAD_BYTES = 64 * 1024;

/** An object store's answer other than the object or its absence (a 403, a 500...). */
export class ObjectReadError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ObjectReadError';
  }
}

/** A piece of an object's bytes, lent: they are read into again once `release` is called. */
export interface ObjectPiece {
  bytes: Buffer;
  release(): void;
}

/**
 * An object's bytes as they are read, piece by piece, in buffers that are used again: the
 * consumer takes each piece with `next()` and gives it back with `release()` once done with
 * it (e.g. once a socket wrote it). The reading waits while the consumer holds two pieces, so a
 * read never holds more than `BUFFERS_PER_READ` buffers and allocates nothing per piece (no
 * garbage for the GC, a flat RSS however many gigabytes pass).
 */
export interface ObjectPieces {
  /**
   * The next piece, null after the last one; rejects when the read fails (the connection
   * closed early, a timeout): the bytes are never cut short silently.
   */
  next(): Promise<ObjectPiece | null>;
  /** Stops reading (the connection closed); the pieces held stay valid. Idempotent. */
  close(): void;
}

export interface SocketReadOptions {
  /** No byte for this long: the read fails. */
  idleTimeoutMs: number;
}

/**
 * `GET url` (plain HTTP, a signed URL: nothing else is sent) over a connection of its own, the
 * answer's body as `ObjectPieces`; null on a 404; an `ObjectReadError` on any other status.
 * What it saves against Node's HTTP client (minio-js' `getObject`): the socket is read up to
 * `SOCKET_READ_BYTES` at a time straight into buffers used again (Node's sockets read 64 KiB
 * at a time into new buffers, and its HTTP parser copies each piece again), and no stream
 * stands between the socket and the consumer. The body must have a `Content-Length` (an S3
 * GET's has): a connection closed before that many bytes fails the read.
 */
export function getOverSocket(url: URL, options: SocketReadOptions): Promise<ObjectPieces | null> {
  return new Promise((resolve, reject) => {
    const free: Buffer[] = [];
    const take = (): Buffer => free.pop() ?? Buffer.allocUnsafeSlow(SOCKET_READ_BYTES);
    let head: Buffer | null = Buffer.alloc(0);
    let left = -1;
    let settled = false;
    let failure: Error | null = null;
    let held = 0; // pieces read and not yet released (queued or lent)
    let paused = false;
    const queue: ObjectPiece[] = [];
    let waiter: {
      resolve: (piece: ObjectPiece | null) => void;
      reject: (err: Error) => void;
    } | null = null;

    const wake = () => {
      if (!waiter) return;
      const w = waiter;
      if (queue.length > 0) {
        waiter = null;
        w.resolve(queue.shift()!);
      } else if (failure) {
        waiter = null;
        w.reject(failure);
      } else if (left === 0) {
        waiter = null;
        w.resolve(null);
      }
    };
    const fail = (err: Error) => {
      socket.destroy();
      if (!settled) {
        settled = true;
        reject(err);
        return;
      }
      if (left === 0 || failure) return;
      failure = err;
      queue.length = 0; // the pieces not taken are dropped with the read
      wake();
    };
    const piece = (buffer: Buffer, start: number, end: number): boolean => {
      const bytes = buffer.subarray(start, end);
      if (bytes.length > left) {
        fail(new ObjectReadError(`GET ${url.pathname}: more bytes than its Content-Length`));
        return false;
      }
      left -= bytes.length;
      held++;
      lent = true;
      let released = false;
      queue.push({
        bytes,
        release: () => {
          if (released) return;
          released = true;
          held--;
          free.push(buffer);
          if (paused && held < BUFFERS_PER_READ - 1 && left > 0 && !failure) {
            paused = false;
            socket.setTimeout(options.idleTimeoutMs);
            socket.resume();
          }
        },
      });
      if (left === 0) socket.destroy();
      wake();
      // keep one buffer free to read into next: wait while the consumer holds the others
      paused = left > 0 && held >= BUFFERS_PER_READ - 1;
      // waiting for the consumer (a slow client) is no silence of the store's
      if (paused) socket.setTimeout(0);
      return !paused;
    };
    const pieces: ObjectPieces = {
      next: () =>
        new Promise((resolvePiece, rejectPiece) => {
          if (waiter) throw new Error('one next() at a time');
          waiter = { resolve: resolvePiece, reject: rejectPiece };
          wake();
        }),
      close: () => {
        if (left !== 0 && !failure) failure = new ObjectReadError(`GET ${url.pathname}: closed`);
        socket.destroy();
        wake();
      },
    };
    const onHead = (buffer: Buffer, n: number): boolean => {
      head = Buffer.concat([head!, buffer.subarray(0, n)]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) fail(new ObjectReadError('an answer head too long'));
        return true;
      }
      const text = head.subarray(0, end).toString('latin1');
      const restBytes = head.length - (end + 4); // of this read: at its end
      const rest = head.subarray(end + 4);
      head = null;
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1] ?? 0);
      if (status === 404) {
        settled = true;
        socket.destroy();
        resolve(null);
        return false;
      }
      if (status !== 200) {
        const code = /<Code>([^<]*)<\/Code>/.exec(rest.toString('utf8'))?.[1];
        fail(
          new ObjectReadError(`GET ${url.pathname}: ${status}${code ? ` ${code}` : ''}`, status),
        );
        return false;
      }
      const length = /\r\ncontent-length:[ \t]*(\d+)/i.exec(text)?.[1];
      if (length === undefined || /\r\ntransfer-encoding:/i.test(text)) {
        fail(new ObjectReadError(`GET ${url.pathname}: an answer without a Content-Length`));
        return false;
      }
      left = Number(length);
      if (restBytes > left) {
        fail(new ObjectReadError(`GET ${url.pathname}: more bytes than its Content-Length`));
        return false;
      }
      settled = true;
      resolve(pieces);
      if (left === 0) {
        socket.destroy();
        return false;
      }
      return restBytes === 0 || piece(buffer, n - restBytes, n);
    };

    let reading = take();
    let lent = false; // the buffer just read into went out in a piece
    const socket = connect({
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'), // (an IPv6 address without its brackets)
      port: Number(url.port || 80),
      onread: {
        // called before each read: the buffer the next bytes go to
        buffer: () => reading,
        callback: (n: number, into: Uint8Array) => {
          const buffer = into as Buffer;
          lent = false;
          const more = head ? onHead(buffer, n) : piece(buffer, 0, n);
          if (lent) reading = take();
          return more;
        },
      },
    });
    socket.setNoDelay(true);
    socket.setTimeout(options.idleTimeoutMs, () =>
      fail(new ObjectReadError(`GET ${url.pathname}: no byte for ${options.idleTimeoutMs} ms`)),
    );
    socket.on('error', fail);
    const early = () => {
      if (left !== 0) fail(new ObjectReadError(`GET ${url.pathname}: the connection closed early`));
    };
    socket.on('end', early);
    socket.on('close', early);
    socket.resume(); // (with `onread` no 'data' is emitted: this only lets 'end' through)
    socket.write(
      `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`,
    );
  });
}

/** A stream as `ObjectPieces` (its chunks lent as they come; nothing to give back). */
export function piecesOfStream(stream: Readable): ObjectPieces {
  const iterator = stream[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  return {
    next: async () => {
      const { value, done } = await iterator.next();
      return done ? null : { bytes: value, release: () => undefined };
    },
    close: () => stream.destroy(),
  };
}
