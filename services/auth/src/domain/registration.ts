import {
  REGISTER_MULTIPART_LIMITS,
  RegisterMessages,
  REGISTER_PICTURE_FIELD,
  REGISTER_TEXT_FIELDS,
} from '@wayfarer/contracts';

/** Text fields accepted by `POST /api/register`; anything else is refused (contracts). */
export { REGISTER_TEXT_FIELDS, REGISTER_MULTIPART_LIMITS };
export type RegisterTextField = (typeof REGISTER_TEXT_FIELDS)[number];

/** The one file field accepted by `POST /api/register`. */
export const PICTURE_FIELD = REGISTER_PICTURE_FIELD;

export function isRegisterTextField(name: string): name is RegisterTextField {
  return (REGISTER_TEXT_FIELDS as readonly string[]).includes(name);
}

export function pictureTooLargeMessage(): string {
  return RegisterMessages.pictureTooLarge;
}

export const NOT_AN_IMAGE_MESSAGE = RegisterMessages.pictureNotImage;
export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists.';
export const REGISTERED_MESSAGE = 'Registration successful!';
