import { connect } from 'node:net';
import { Readable } from 'node:stream';

/** How much one read from the socket takes at most (the kernel hands over what it holds). */
export const SOCKET_READ_BYTES = 1024 * 1024;
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

export interface SocketReadOptions {
  /** How far the stream reads ahead of its consumer (the socket is paused beyond it). */
  highWaterMark: number;
  /** No byte for this long: the read fails. */
  idleTimeoutMs: number;
}

/**
 * `GET url` (plain HTTP, a signed URL: nothing else is sent) over a connection of its own, the
 * answer's body as a stream; null on a 404; an `ObjectReadError` on any other status. What it
 * saves against Node's HTTP client (minio-js' `getObject`): the socket is read up to
 * `SOCKET_READ_BYTES` at a time into one reused buffer (Node's sockets read 64 KiB at a time,
 * and its HTTP parser copies each piece again), and the body passes through one stream, not an
 * `IncomingMessage` and minio-js' layers. The body must have a `Content-Length` (an S3 GET's
 * has): a connection closed before that many bytes fails the stream, never ends it short.
 */
export function getOverSocket(url: URL, options: SocketReadOptions): Promise<Readable | null> {
  return new Promise((resolve, reject) => {
    const buffer = Buffer.allocUnsafe(SOCKET_READ_BYTES);
    let head: Buffer | null = Buffer.alloc(0);
    let body: Readable | null = null;
    let left = -1;
    let settled = false;

    const fail = (err: Error) => {
      socket.destroy();
      if (!settled) {
        settled = true;
        reject(err);
      } else if (left !== 0) body?.destroy(err);
    };
    const deliver = (chunk: Buffer): boolean => {
      if (chunk.length > left) {
        fail(new ObjectReadError(`GET ${url.pathname}: more bytes than its Content-Length`));
        return false;
      }
      left -= chunk.length;
      const more = body!.push(chunk);
      if (left === 0) {
        body!.push(null);
        socket.destroy();
        return false;
      }
      return more;
    };
    const onHead = (bytes: Buffer): boolean => {
      head = Buffer.concat([head!, bytes]);
      const end = head.indexOf('\r\n\r\n');
      if (end < 0) {
        if (head.length > MAX_HEAD_BYTES) fail(new ObjectReadError('an answer head too long'));
        return true;
      }
      const text = head.subarray(0, end).toString('latin1');
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
      if (rest.length > left) {
        fail(new ObjectReadError(`GET ${url.pathname}: more bytes than its Content-Length`));
        return false;
      }
      body = new Readable({
        highWaterMark: options.highWaterMark,
        read: () => {
          if (left > 0) socket.resume();
        },
        destroy: (err, callback) => {
          socket.destroy();
          callback(err);
        },
      });
      settled = true;
      resolve(body);
      if (left === 0) {
        body.push(null);
        socket.destroy();
        return false;
      }
      return rest.length === 0 || deliver(rest);
    };

    const socket = connect({
      host: url.hostname,
      port: Number(url.port || 80),
      onread: {
        buffer,
        // the buffer is read into again next time: the body gets a copy (one memcpy)
        callback: (n: number, read: Uint8Array) => {
          const bytes = Buffer.from(read.buffer, read.byteOffset, n);
          return head ? onHead(bytes) : deliver(Buffer.from(bytes));
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
