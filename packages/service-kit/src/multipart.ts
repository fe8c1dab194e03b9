import { HttpError } from './errors';

/** The answers that depend on the form: its file size and file count limits. */
export interface MultipartMessages {
  /** 413 when a file is over the size limit. */
  fileTooLarge: string;
  /** 400 when more files are sent than the form takes. */
  tooManyFiles: string;
}

/**
 * Turns an error thrown while reading a multipart form (@fastify/multipart, busboy) into a 4xx
 * answer people can read. An HttpError passes through; our own bugs (TypeError, RangeError,
 * ReferenceError) and local failures with an unknown code (e.g. a full spool disk) are returned
 * as they are, so they stay 500s and get logged instead of becoming a misleading 400.
 */
export function multipartError(err: unknown, messages: MultipartMessages): unknown {
  if (err instanceof HttpError) return err;
  if (err instanceof TypeError || err instanceof RangeError || err instanceof ReferenceError) {
    return err;
  }
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, messages.fileTooLarge);
    case 'FST_FILES_LIMIT':
      return new HttpError(400, messages.tooManyFiles);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new HttpError(413, 'The form has too many fields.');
    case 'FST_PROTO_VIOLATION':
      return new HttpError(400, 'The form has an invalid field name.');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return new HttpError(400, 'A field of the form is not plain text.');
    case 'FST_MP_PREMATURE_CLOSE':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return new HttpError(400, 'The request ended before the form was complete.');
    case undefined:
      // busboy's own parse errors (missing boundary, bad part headers, truncated data)
      return new HttpError(400, 'The form data is malformed.');
    default:
      return err;
  }
}
