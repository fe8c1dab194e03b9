import { connect } from 'node:net';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/**
 * How a request's body is framed on the wire. Any byte may be sent (a `net` socket, not an HTTP
 * client that would refuse or fix what it is given):
 * - `none`: no body and no body header; `length`: an exact Content-Length;
 * - `chunked`: Transfer-Encoding chunked, in a few chunks;
 * - `short`: a Content-Length `cut` bytes smaller than what follows (the rest trails after it);
 * - `long`: a Content-Length `cut` bytes larger than what is sent, then the client closes its side;
 * - `both`: Content-Length and chunked at once (a request-smuggling shape);
 * - `bad-chunks`: chunked, with the fault `chunkFault`.
 */
export type Framing = 'none' | 'length' | 'chunked' | 'short' | 'long' | 'both' | 'bad-chunks';

export const CHUNK_FAULTS = [
  'bad-size',
  'huge-size',
  'size-over-data',
  'no-crlf',
  'extension',
  'no-last-chunk',
] as const;
export type ChunkFault = (typeof CHUNK_FAULTS)[number];

export interface RawRequest {
  method: string;
  /** The request target as sent: path and query, already encoded (or wrongly). */
  target: string;
  /** Sent after Host and Connection, in order; names and values as given (latin1 bytes). */
  headers: readonly (readonly [string, string])[];
  body: Buffer;
  framing: Framing;
  /** `short`/`long`: by how many bytes the length lies. */
  cut?: number;
  chunkFault?: ChunkFault;
}

export interface RawAnswer {
  /** Null when the connection ended without a status line. */
  status: number | null;
  headers: Record<string, string>;
  /** The body, decoded (chunked, then content-encoding) as far as possible. */
  body: Buffer;
  /** From the first byte written to the connection's end. */
  ms: number;
  /** A socket error (reset, refused), or 'timeout'. */
  error?: string;
  timedOut: boolean;
}

/** Framings after which the client closes its side mid-body: no answer at all is fair there. */
export const halfClosed = (req: RawRequest): boolean =>
  req.framing === 'long' ||
  (req.framing === 'bad-chunks' &&
    (req.chunkFault === 'huge-size' ||
      req.chunkFault === 'size-over-data' ||
      req.chunkFault === 'no-last-chunk'));

function chunked(body: Buffer): Buffer {
  const pieces: Buffer[] = [];
  const cuts = [0, Math.floor(body.length / 3), Math.floor((2 * body.length) / 3), body.length];
  for (let i = 0; i < 3; i++) {
    const piece = body.subarray(cuts[i], cuts[i + 1]);
    if (piece.length === 0) continue;
    pieces.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(pieces);
}

function badChunks(body: Buffer, fault: ChunkFault): Buffer {
  const size = body.length.toString(16);
  const text = (s: string) => Buffer.from(s, 'latin1');
  switch (fault) {
    case 'bad-size':
      return Buffer.concat([text('zz\r\n'), body, text('\r\n0\r\n\r\n')]);
    case 'huge-size':
      return Buffer.concat([text('ffffffffffffffff\r\n'), body]);
    case 'size-over-data':
      return Buffer.concat([text(`${(body.length + 4096).toString(16)}\r\n`), body]);
    case 'no-crlf':
      return Buffer.concat([text(`${size}\r\n`), body, text('0\r\n\r\n')]);
    case 'extension':
      return Buffer.concat([
        text(`${size};${'e'.repeat(9000)}=x\r\n`),
        body,
        text('\r\n0\r\n\r\n'),
      ]);
    case 'no-last-chunk':
      return Buffer.concat([text(`${size}\r\n`), body, text('\r\n')]);
  }
}

/** The exact bytes of `req` sent to `host` (`Connection: close`: one request per connection). */
export function rawBytes(req: RawRequest, host: string): Buffer {
  const lines = [`${req.method} ${req.target} HTTP/1.1`, `Host: ${host}`, 'Connection: close'];
  for (const [name, value] of req.headers) lines.push(`${name}: ${value}`);
  const len = req.body.length;
  let body: Buffer = req.body;
  switch (req.framing) {
    case 'none':
      body = Buffer.alloc(0);
      break;
    case 'length':
      lines.push(`Content-Length: ${len}`);
      break;
    case 'short':
      lines.push(`Content-Length: ${Math.max(0, len - (req.cut ?? 1))}`);
      break;
    case 'long':
      lines.push(`Content-Length: ${len + (req.cut ?? 1)}`);
      break;
    case 'chunked':
      lines.push('Transfer-Encoding: chunked');
      body = chunked(req.body);
      break;
    case 'both':
      lines.push(`Content-Length: ${len}`, 'Transfer-Encoding: chunked');
      body = chunked(req.body);
      break;
    case 'bad-chunks':
      lines.push('Transfer-Encoding: chunked');
      body = badChunks(req.body, req.chunkFault ?? 'bad-size');
      break;
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), body]);
}

function decodeBody(headers: Record<string, string>, raw: Buffer): Buffer {
  let body = raw;
  try {
    if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
      const parts: Buffer[] = [];
      let at = 0;
      for (;;) {
        const eol = body.indexOf('\r\n', at);
        if (eol < 0) break;
        const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
        if (!(size > 0)) break;
        parts.push(body.subarray(eol + 2, eol + 2 + size));
        at = eol + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    }
    const encoding = (headers['content-encoding'] ?? '').toLowerCase();
    if (encoding === 'br') body = brotliDecompressSync(body);
    else if (encoding === 'gzip') body = gunzipSync(body);
    else if (encoding === 'deflate') body = inflateSync(body);
  } catch {
    // a body that does not decode is kept as it came (the report shows its start)
  }
  return body;
}

/** Splits what came back into a status, headers and a body. */
export function parseAnswer(bytes: Buffer): Pick<RawAnswer, 'status' | 'headers' | 'body'> {
  bytes = bytes.subarray(finalAnswerStart(bytes));
  const end = bytes.indexOf('\r\n\r\n');
  const head = bytes.subarray(0, end < 0 ? bytes.length : end).toString('latin1');
  const [statusLine = '', ...headerLines] = head.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  // only this answer's body: a second answer may follow (to bytes sent past a lying length)
  const length = Number(headers['content-length'] ?? NaN);
  const rest = end < 0 ? Buffer.alloc(0) : bytes.subarray(end + 4);
  const body = decodeBody(headers, Number.isInteger(length) ? rest.subarray(0, length) : rest);
  return { status: match ? Number(match[1]) : null, headers, body };
}

/** Skips informational (1xx) answers: the offset of the final answer's status line. */
function finalAnswerStart(bytes: Buffer): number {
  let at = 0;
  while (/^HTTP\/1\.[01] 1\d\d /.test(bytes.subarray(at, at + 16).toString('latin1'))) {
    const next = bytes.indexOf('\r\n\r\n', at);
    if (next < 0) return at;
    at = next + 4;
  }
  return at;
}

/**
 * Whether `bytes` hold a whole answer by its own framing (Content-Length, chunked, or none for
 * HEAD, 204 and 304); an answer framed by the connection's end is whole only at the end.
 */
export function answerComplete(bytes: Buffer, method: string): boolean {
  const start = finalAnswerStart(bytes);
  const end = bytes.indexOf('\r\n\r\n', start);
  if (end < 0) return false;
  const { status, headers } = parseAnswer(bytes.subarray(start, end + 4));
  const body = bytes.subarray(end + 4);
  if (method === 'HEAD' || status === 204 || status === 304) return true;
  if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    let at = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', at);
      if (eol < 0) return false;
      const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
      if (Number.isNaN(size)) return true; // not ours to judge: the answer is what came
      if (size === 0) return body.indexOf('\r\n\r\n', eol) >= 0 || body.length >= eol + 4;
      at = eol + 2 + size + 2;
      if (at > body.length) return false;
    }
  }
  const length = headers['content-length'];
  return length !== undefined && body.length >= Number(length);
}

/**
 * Sends `req` on a new connection to 127.0.0.1:`port` and reads the answer until it is whole by
 * its framing or the server closes the connection (or `limitMs` passes: `timedOut`). The whole
 * request is written at once; half-closing framings end the client's side after it.
 */
export function sendRaw(port: number, req: RawRequest, limitMs: number): Promise<RawAnswer> {
  const bytes = rawBytes(req, `127.0.0.1:${port}`);
  return new Promise((resolve) => {
    const started = performance.now();
    const received: Buffer[] = [];
    let error: string | undefined;
    let timedOut = false;
    const socket = connect({ host: '127.0.0.1', port, allowHalfOpen: true });
    const timer = setTimeout(() => {
      timedOut = true;
      socket.destroy();
    }, limitMs);
    socket.on('connect', () => {
      socket.write(bytes);
      if (halfClosed(req)) socket.end();
    });
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      if (answerComplete(Buffer.concat(received), req.method)) socket.destroy();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
    });
    // the server ended its side: the answer is complete (Connection: close)
    socket.on('end', () => socket.destroy());
    socket.on('close', () => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      resolve({
        ...parseAnswer(Buffer.concat(received)),
        ms,
        error: timedOut ? 'timeout' : error,
        timedOut,
      });
    });
  });
}

const MAX_SHOWN = 1200;

/**
 * `req` as a reproducible text: the request line and headers, then the body as a JS string
 * literal of its latin1 bytes (cut past MAX_SHOWN, with the total length), and the framing.
 */
export function describeRaw(req: RawRequest): string {
  const head = [`${req.method} ${req.target}`, ...req.headers.map(([n, v]) => `${n}: ${v}`)]
    .map((line) =>
      JSON.stringify(line.length > 300 ? `${line.slice(0, 300)}...(${line.length})` : line),
    )
    .join('\n  ');
  const body = req.body.toString('latin1');
  const shown =
    body.length > MAX_SHOWN
      ? `${JSON.stringify(body.slice(0, MAX_SHOWN))} ...(${req.body.length} bytes in all)`
      : JSON.stringify(body);
  const framing =
    req.framing +
    (req.cut !== undefined && (req.framing === 'short' || req.framing === 'long')
      ? ` by ${req.cut}`
      : '') +
    (req.framing === 'bad-chunks' ? ` (${req.chunkFault})` : '');
  return `${head}\n  framing: ${framing}\n  body (latin1): ${shown}`;
}
