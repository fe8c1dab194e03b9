/** A file part of a test form. */
export interface FormFile {
  field: string;
  data: Uint8Array;
  /** Default `file.bin`. */
  filename?: string;
  /** Declared content type; default `application/octet-stream`. */
  type?: string;
}

/**
 * A real multipart body (bytes and content type), built the way a browser's FormData is, for
 * `app.inject`. Fields are a record or, to repeat or order names, a list of pairs.
 */
export async function multipartBody(
  fields: [string, string][] | Record<string, string>,
  files: FormFile[] = [],
): Promise<{ payload: Buffer; headers: Record<string, string> }> {
  const form = new FormData();
  const entries = Array.isArray(fields) ? fields : Object.entries(fields);
  for (const [name, value] of entries) form.append(name, value);
  for (const f of files) {
    form.append(
      f.field,
      new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/octet-stream' }),
      f.filename ?? 'file.bin',
    );
  }
  const res = new Response(form);
  return {
    payload: Buffer.from(await res.arrayBuffer()),
    headers: { 'content-type': res.headers.get('content-type')! },
  };
}

/**
 * What a real HTTP client saw: the answer, whether it came before the whole body was sent, and
 * whether the server closed the connection after it (`Connection: close`); or the network error
 * the client got instead of an answer.
 */
export type HttpOutcome =
  | { status: number; body: unknown; answeredBeforeBodySent: boolean; connectionClosed: boolean }
  | { error: string };

/**
 * Sends `form` as a browser does, streamed by Node's `fetch` (undici) to a listening server, and
 * reports what came back (`HttpOutcome`). A server that answers while the client is still
 * sending, and closes the connection, breaks the client's pipe: a network error in a browser,
 * a 502 from a proxy in between.
 */
export async function postFormOverHttp(
  url: string,
  form: FormData,
  headers: Record<string, string> = {},
): Promise<HttpOutcome> {
  const encoded = new Response(form);
  const source = encoded.body!.getReader();
  let bodySent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await source.read();
      if (done) {
        bodySent = true;
        controller.close();
      } else controller.enqueue(value);
    },
  });
  try {
    const res = await fetch(url, {
      method: 'POST',
      body,
      duplex: 'half',
      headers: {
        ...headers,
        'content-type': encoded.headers.get('content-type')!,
      },
    } as RequestInit);
    const answeredBeforeBodySent = !bodySent;
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: kept as text
    }
    return {
      status: res.status,
      body: parsed,
      answeredBeforeBodySent,
      connectionClosed: res.headers.get('connection')?.toLowerCase() === 'close',
    };
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    return { error: cause?.code ?? cause?.message ?? String(err) };
  }
}
