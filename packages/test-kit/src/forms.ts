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
