/**
 * The one way the app talks to the gateway: same origin, cookies included, JSON answers.
 * Any non-2xx answer (or a network failure) becomes an `ApiError` carrying the status and,
 * when the server sent one, its `message`.
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
  const { json, headers: initHeaders, body: initBody, ...rest } = init;
  const headers = new Headers(initHeaders);
  if (!headers.has('Accept')) headers.set('Accept', 'application/json');

  let body = initBody;
  if (json !== undefined) {
    headers.set('Content-Type', 'application/json');
    body = JSON.stringify(json);
  }

  let res: Response;
  try {
    res = await fetch(path, { ...rest, headers, body, credentials: 'include' });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, undefined);
  }

  const data = await readBody(res);
  if (!res.ok) throw new ApiError(res.status, messageFrom(data), data);
  return { data: data as T, headers: res.headers };
}
