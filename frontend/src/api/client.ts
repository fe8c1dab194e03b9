import { IDEMPOTENCY_KEY_HEADER } from '@wayfarer/contracts';

/**
 * The one way the app talks to the gateway: same origin, cookies included, JSON answers.
 * Any non-2xx answer (or a network failure) becomes an `ApiError` carrying the status and,
 * when the server sent one, its `message`. Creates (`idempotent: true`) carry an
 * `Idempotency-Key`: one per user action, the same when that action is retried.
 */

export class ApiError extends Error {
  /** HTTP status; 0 when the server could not be reached at all. */
  readonly status: number;
  /** The `message` (or `error`) field of the server's answer, when it had one. */
  readonly serverMessage: string | undefined;
  /** The parsed answer body, if any. */
  readonly body: unknown;

  constructor(status: number, serverMessage: string | undefined, body?: unknown) {
    super(
      serverMessage ??
        (status === 0 ? 'Could not reach the server.' : `Request failed (${status})`),
    );
    this.name = 'ApiError';
    this.status = status;
    this.serverMessage = serverMessage;
    this.body = body;
  }
}

export interface ApiInit extends RequestInit {
  /** A value to send as a JSON body (sets `Content-Type: application/json`). */
  json?: unknown;
  /**
   * A create the server makes once per `Idempotency-Key` (trips, bucket list places, journal
   * saves, friend requests): the request carries the key of its action (`idempotencyKeys`), so
   * when its answer is lost (a 502, a dropped connection) and the user tries again, the retry
   * is answered what the first did instead of creating a second one.
   */
  idempotent?: boolean;
}

/** A random UUID (v4); `crypto.randomUUID` exists only on secure origins (HTTPS, localhost). */
export function randomKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The `Idempotency-Key`s of user actions. An action is what a request asks (`requestSignature`:
 * method, path, body); it keeps its key until it succeeds, so the same request sent again (the
 * trip form's save after a failed upload, a journal save retried, a click after a network
 * error) is the same action with the same key, and the server answers it without creating
 * twice. Once it succeeded, the same request again is a new action (a new key): the user
 * meant it. At most `max` unfinished actions are remembered (the oldest go first).
 */
export class IdempotencyKeys {
  private readonly keys = new Map<string, string>();

  constructor(
    private readonly newKey: () => string = randomKey,
    private readonly max = 100,
  ) {}

  /** The key of the action `signature`: a new one, or the one it had while unfinished. */
  keyFor(signature: string): string {
    let key = this.keys.get(signature);
    if (key === undefined) {
      key = this.newKey();
      this.keys.set(signature, key);
      if (this.keys.size > this.max) this.keys.delete(this.keys.keys().next().value!);
    }
    return key;
  }

  /** The action succeeded: its key is done with. */
  settle(signature: string): void {
    this.keys.delete(signature);
  }
}

/** The app's one set of action keys (the API client and the trip upload use it). */
export const idempotencyKeys = new IdempotencyKeys();

/**
 * What a request asks, as a string: its method, path and body (a JSON text, or a form's fields
 * in order with each file's name, type, size and modification time).
 */
export function requestSignature(method: string, path: string, body: unknown): string {
  let content: unknown = body ?? null;
  if (typeof FormData !== 'undefined' && body instanceof FormData) {
    content = [...body.entries()].map(([name, value]) =>
      typeof value === 'string'
        ? [name, value]
        : [name, { file: value.name, type: value.type, size: value.size, at: value.lastModified }],
    );
  } else if (typeof body !== 'string' && body !== null && body !== undefined) {
    throw new Error('requestSignature: a JSON text or a FormData body');
  }
  return JSON.stringify([method.toUpperCase(), path, content]);
}

/** Picks a human message out of an error answer: `{message}` first, then `{error}`. */
export function messageFrom(body: unknown): string | undefined {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    for (const key of ['message', 'error']) {
      const value = record[key];
      if (typeof value === 'string' && value.trim() !== '') return value;
    }
  }
  return undefined;
}

async function readBody(res: Response): Promise<unknown> {
  if (res.status === 204 || res.status === 205) return null;
  const text = await res.text();
  if (text === '') return null;
  const type = res.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

export async function apiFetch<T = unknown>(path: string, init: ApiInit = {}): Promise<T> {
  return (await apiFetchWithHeaders<T>(path, init)).data;
}

/** `apiFetch` that also hands back the answer's headers (a next-page cursor, say). */
export async function apiFetchWithHeaders<T = unknown>(
  path: string,
  init: ApiInit = {},
): Promise<{ data: T; headers: Headers }> {
  const { json, idempotent, headers: initHeaders, body: initBody, ...rest } = init;
  const headers = new Headers(initHeaders);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');

  let body = initBody;
  if (json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(json);
  }
  const action = idempotent ? requestSignature(rest.method ?? 'GET', path, body) : null;
  if (action !== null) headers.set(IDEMPOTENCY_KEY_HEADER, idempotencyKeys.keyFor(action));

  let res: Response;
  try {
    res = await fetch(path, { ...rest, headers, body, credentials: 'include' });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, undefined);
  }

  const data = await readBody(res);
  if (!res.ok) throw new ApiError(res.status, messageFrom(data), data);
  if (action !== null) idempotencyKeys.settle(action);
  return { data: data as T, headers: res.headers };
}
