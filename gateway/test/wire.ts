import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { request as httpRequest, type ClientRequest, type IncomingHttpHeaders } from 'node:http';
import { Writable } from 'node:stream';
import { createSigner } from 'fast-jwt';
import pino from 'pino';
import { SESSION_AUDIENCE, SESSION_COOKIE, SESSION_ISSUER } from '@wayfarer/contracts';
import { loggerOptions } from '@wayfarer/service-kit';
import { publicKeyPem } from '@wayfarer/service-kit/keys';
import { testInfra } from '@wayfarer/test-kit';
import { GatewayEnv } from '../src/config';

/** For the gateway's tests: raw HTTP on the wire (requests sent verbatim), logs kept, sessions. */

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  /** An error the client saw on its side (reset connection, broken pipe), if any. */
  clientError: Error | null;
  /** Whether the connection was still open when the whole answer had arrived. */
  openAtAnswer: boolean;
}

export interface SendOptions {
  method?: string;
  path: string;
  headers?: Record<string, string | number>;
  /** Body chunks, each written once the previous one drained. */
  chunks?: Iterable<Buffer>;
  /**
   * false: the body is never ended (the chunks are all the client sends), and the answer is
   * taken as soon as it has arrived; the connection is then closed by the client.
   */
  end?: boolean;
}

/** One request on its own connection, path sent as given; `chunks` are streamed. */
export function send(port: number, options: SendOptions): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    let clientError: Error | null = null;
    let response: Omit<RawResponse, 'clientError'> | null = null;
    let settled = false;
    const resolveAnswer = () => {
      if (settled || !response) return;
      settled = true;
      resolve({ ...response, clientError });
      if (options.end === false) req.destroy();
    };
    const req: ClientRequest = httpRequest({
      host: '127.0.0.1',
      port,
      method: options.method ?? 'GET',
      path: options.path,
      headers: options.headers,
      agent: false,
    });
    req.on('error', (err) => {
      clientError = err;
      if (!response) reject(err);
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const openAtAnswer = !req.socket?.destroyed;
        response = { status: res.statusCode ?? 0, headers: res.headers, body, openAtAnswer };
        if (options.end === false) return resolveAnswer();
        // the connection's fate is part of the answer: wait for the socket to close or idle
        if (res.headers.connection === 'close') req.socket?.once('close', resolveAnswer);
        else resolveAnswer();
        if (req.socket?.destroyed) resolveAnswer();
      });
    });
    const write = async () => {
      for (const chunk of options.chunks ?? []) {
        if (req.destroyed || settled) return;
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
      }
      if (options.end === false) req.flushHeaders();
      else req.end();
    };
    void write();
  });
}

/** An answer with its body as bytes (compressed answers, binary bodies). */
export interface BytesResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request on its own connection, the answer's body kept as bytes. */
export function getBytes(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<BytesResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers, agent: false });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.end();
  });
}

export const json = (res: RawResponse) => JSON.parse(res.body) as Record<string, unknown>;

/** `total` bytes of `fill` as 64 KiB chunks (one buffer, reused). */
export function* bytes(total: number, fill = 'a'): Generator<Buffer> {
  const chunk = Buffer.alloc(64 * 1024, fill);
  for (let left = total; left > 0; left -= chunk.length) {
    yield left >= chunk.length ? chunk : chunk.subarray(0, left);
  }
}

/** A log destination that keeps every line the gateway writes. */
export function captureLogs() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  const logger = pino(loggerOptions('gateway', 'info'), stream);
  /** Lines written from `from` on at error level or above. */
  const errorsSince = (from: number) =>
    lines.slice(from).filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
  return { lines, logger, errorsSince };
}

/** A random client address (rate-limit buckets live in the shared Redis; behind TRUST_PROXY). */
export const clientIp = () =>
  `10.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

/**
 * A session key pair of a test's own: the gateway gets `publicKeyPem`; `cookie` is a signed-in
 * session cookie (`Cookie` header value) for `sub`, with its own session id unless one is given.
 */
export function testSessions() {
  const { privateKey } = generateKeyPairSync('ed25519');
  const sign = createSigner({
    key: privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
    algorithm: 'EdDSA',
    iss: SESSION_ISSUER,
    aud: SESSION_AUDIENCE,
    expiresIn: 600_000,
  });
  return {
    publicKeyPem: publicKeyPem(privateKey),
    cookie: (sub = 'user-1', jti: string = randomUUID()) =>
      `${SESSION_COOKIE}=${sign({ sub, jti })}`,
  };
}

/** The gateway's env naming one `url` for every upstream service (`AUTH_URL`, `TRIPS_URL`...). */
export const upstreamsAt = (url: string) => ({
  AUTH_URL: url,
  TRIPS_URL: url,
  BUCKETLIST_URL: url,
  SOCIAL_URL: url,
  JOURNAL_URL: url,
  CHAT_URL: url,
  PLACES_URL: url,
  NOTIFICATIONS_URL: url,
});

/** The gateway's config for a test: port 8080 (not listened on) and the infra's Redis, plus `env`. */
export const testConfig = (env: Record<string, string>) =>
  GatewayEnv.parse({ PORT: '8080', REDIS_URL: testInfra().redisUrl, ...env });
