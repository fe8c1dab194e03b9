import type { FastifyReply, FastifyRequest } from 'fastify';
import { BodyLimits } from '@wayfarer/contracts';
import { HttpError } from '@wayfarer/service-kit';
import { readImageForm, type SpooledImage } from '@wayfarer/storage/upload';
import {
  NOT_AN_IMAGE_MESSAGE,
  PICTURE_FIELD,
  pictureTooLargeMessage,
  REGISTER_MULTIPART_LIMITS,
  REGISTER_TEXT_FIELDS,
  type RegisterTextField,
} from '../domain/registration';

export interface RegistrationForm {
  fields: Partial<Record<RegisterTextField, string>>;
  /** Spooled to `spoolDir`, typed by its first bytes; not yet through the image pipeline. */
  picture: SpooledImage | null;
}

/**
 * Reads the multipart registration form: the three text fields and at most one
 * `profilePicture` file (at most AuthLimits.profilePictureMaxBytes), with storage's shared
 * multipart reader. Anything else, and any malformed body, is a 4xx HttpError with a clear
 * message.
 */
export function readRegistrationForm(
  request: FastifyRequest,
  reply: FastifyReply,
  spoolDir: string,
): Promise<RegistrationForm> {
  return readPictureForm(request, reply, spoolDir, {
    textFields: REGISTER_TEXT_FIELDS,
    notMultipart: 'Registration must be sent as multipart/form-data.',
  });
}

/** A form like the registration's: some text fields, at most one `profilePicture`. */
export interface PictureForm<F extends string> {
  fields: Partial<Record<F, string>>;
  picture: SpooledImage | null;
}

/**
 * Reads a multipart form with the registration form's limits and picture: the given text
 * fields (each at most once; any other is a 400) and at most one `profilePicture` file. Used by
 * `POST /api/register` and `PATCH /api/userDetails`.
 */
export async function readPictureForm<F extends string>(
  request: FastifyRequest,
  reply: FastifyReply,
  spoolDir: string,
  options: { textFields: readonly F[]; notMultipart: string },
): Promise<PictureForm<F>> {
  const fields: PictureForm<F>['fields'] = {};
  const isTextField = (name: string): name is F =>
    (options.textFields as readonly string[]).includes(name);
  const files = await readImageForm(request, reply, {
    spoolDir,
    limits: REGISTER_MULTIPART_LIMITS,
    bodyMaxBytes: BodyLimits.register,
    messages: {
      notMultipart: options.notMultipart,
      notAnImage: () => NOT_AN_IMAGE_MESSAGE,
      fileTooLarge: pictureTooLargeMessage(),
      tooManyFiles: `Only one file, ${PICTURE_FIELD}, may be uploaded.`,
    },
    field(name, value) {
      if (name === PICTURE_FIELD) {
        if (value === '') return; // no picture chosen
        throw new HttpError(400, `${PICTURE_FIELD} must be an image file.`);
      }
      if (!isTextField(name)) throw new HttpError(400, `Unexpected field "${name}".`);
      if (fields[name] !== undefined) {
        throw new HttpError(400, `The ${name} field was sent more than once.`);
      }
      fields[name] = value;
    },
    file(name) {
      if (name !== PICTURE_FIELD) {
        throw new HttpError(
          400,
          `Unexpected file "${name}": only ${PICTURE_FIELD} may be uploaded.`,
        );
      }
      return 'Profile picture';
    },
  });
  return { fields, picture: files[0] ?? null };
}
