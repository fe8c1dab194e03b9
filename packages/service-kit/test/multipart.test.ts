import { describe, expect, it } from 'vitest';
import { HttpError } from '../src/errors';
import { multipartError } from '../src/multipart';

const messages = { fileTooLarge: 'File too large.', tooManyFiles: 'Too many files.' };
const coded = (code: string) => Object.assign(new Error(code), { code });

describe('multipartError', () => {
  it.each([
    ['FST_REQ_FILE_TOO_LARGE', 413, 'File too large.'],
    ['FST_FILES_LIMIT', 400, 'Too many files.'],
    ['FST_FIELDS_LIMIT', 413, 'The form has too many fields.'],
    ['FST_PARTS_LIMIT', 413, 'The form has too many fields.'],
    ['FST_PROTO_VIOLATION', 400, 'The form has an invalid field name.'],
    ['FST_INVALID_JSON_FIELD_ERROR', 400, 'A field of the form is not plain text.'],
    ['FST_MP_PREMATURE_CLOSE', 400, 'The request ended before the form was complete.'],
    ['ERR_STREAM_PREMATURE_CLOSE', 400, 'The request ended before the form was complete.'],
  ])('%s is a %i with a readable message', (code, status, message) => {
    const err = multipartError(coded(code), messages);
    expect(err).toBeInstanceOf(HttpError);
    expect(err).toMatchObject({ statusCode: status, message });
  });

  it("busboy's uncoded parse errors are a 400 'malformed'", () => {
    expect(multipartError(new Error('Unexpected end of form'), messages)).toMatchObject({
      statusCode: 400,
      message: 'The form data is malformed.',
    });
  });

  it('passes an HttpError through, and keeps our bugs and local failures as they are (500)', () => {
    const http = new HttpError(400, 'Unexpected field "x".');
    expect(multipartError(http, messages)).toBe(http);
    for (const err of [new TypeError('x is undefined'), new RangeError('r'), coded('ENOSPC')]) {
      expect(multipartError(err, messages)).toBe(err);
    }
  });
});
