import type { FastifyRequest } from 'fastify';
import { HttpError, multipartError } from '@wayfarer/service-kit';
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
    throw multipartError(err, {
      fileTooLarge: pictureTooLargeMessage(),
      tooManyFiles: `Only one file, ${PICTURE_FIELD}, may be uploaded.`,
    });
  }
  return { fields, picture };
}
