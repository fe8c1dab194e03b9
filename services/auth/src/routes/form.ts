import type { FastifyRequest } from 'fastify';
import { HttpError } from '@wayfarer/service-kit';
import {
  isRegisterTextField,
  PICTURE_FIELD,
  pictureTooLargeMessage,
  REGISTER_MULTIPART_LIMITS,
  type RegisterTextField,
} from '../domain/registration';

export interface UploadedPicture {
  data: Buffer;
  filename: string;
  declaredType: string;
}

export interface RegistrationForm {
  fields: Partial<Record<RegisterTextField, string>>;
  picture: UploadedPicture | null;
}

/**
 * Reads the multipart registration form: the three text fields and at most one
 * `profilePicture` file (buffered; at most AuthLimits.profilePictureMaxBytes). Anything else,
 * and any malformed body, is a 4xx HttpError with a clear message.
 */
export async function readRegistrationForm(request: FastifyRequest): Promise<RegistrationForm> {
  if (!request.isMultipart()) {
    throw new HttpError(415, 'Registration must be sent as multipart/form-data.');
  }
  const fields: RegistrationForm['fields'] = {};
  let picture: UploadedPicture | null = null;
  try {
    for await (const part of request.parts({ limits: REGISTER_MULTIPART_LIMITS })) {
      const name = part.fieldname;
      if (part.type === 'file') {
        if (name !== PICTURE_FIELD) {
          part.file.resume();
          throw new HttpError(
            400,
            `Unexpected file "${name}": only ${PICTURE_FIELD} may be uploaded.`,
          );
        }
        const data = await part.toBuffer();
        // A browser form with no file chosen sends an empty part with an empty file name.
        if (data.length === 0 && !part.filename) continue;
        picture = { data, filename: part.filename, declaredType: part.mimetype };
        continue;
      }
      if (name === PICTURE_FIELD) {
        if (part.value === '') continue; // no picture chosen
        throw new HttpError(400, `${PICTURE_FIELD} must be an image file.`);
      }
      if (!isRegisterTextField(name)) throw new HttpError(400, `Unexpected field "${name}".`);
      if (part.valueTruncated) throw new HttpError(400, `The ${name} field is too long.`);
      if (fields[name] !== undefined)
        throw new HttpError(400, `The ${name} field was sent more than once.`);
      fields[name] = String(part.value);
    }
  } catch (err) {
    throw multipartError(err);
  }
  return { fields, picture };
}

/** Turns @fastify/multipart and busboy errors into 4xx answers people can read. */
function multipartError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  switch ((err as { code?: string } | null)?.code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new HttpError(413, pictureTooLargeMessage());
    case 'FST_FILES_LIMIT':
      return new HttpError(400, `Only one file, ${PICTURE_FIELD}, may be uploaded.`);
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return new HttpError(413, 'The form has too many fields.');
    case 'FST_PROTO_VIOLATION':
      return new HttpError(400, 'The form has an invalid field name.');
    case 'FST_MP_PREMATURE_CLOSE':
      return new HttpError(400, 'The request ended before the form was complete.');
    default:
      // busboy's own parse errors (missing boundary, bad part headers, truncated data)
      return new HttpError(400, 'The form data is malformed.');
  }
}
