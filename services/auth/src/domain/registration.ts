import { AuthLimits } from '@wayfarer/contracts';

/** Text fields accepted by `POST /api/register`; anything else is refused. */
export const REGISTER_TEXT_FIELDS = ['name', 'email', 'password'] as const;
export type RegisterTextField = (typeof REGISTER_TEXT_FIELDS)[number];

/** The one file field accepted by `POST /api/register`. */
export const PICTURE_FIELD = 'profilePicture';

export function isRegisterTextField(name: string): name is RegisterTextField {
  return (REGISTER_TEXT_FIELDS as readonly string[]).includes(name);
}

/**
 * Multipart limits of the registration form (busboy). Generous enough for any real form
 * (a name of 80 characters may take 320 bytes of UTF-8), tight enough that a malformed or
 * flooding body is refused early with a 4xx.
 */
export const REGISTER_MULTIPART_LIMITS = {
  fieldNameSize: 100,
  fieldSize: 4 * 1024,
  fields: 10,
  files: 1,
  fileSize: AuthLimits.profilePictureMaxBytes,
  parts: 12,
  headerPairs: 20,
} as const;

export function pictureTooLargeMessage(): string {
  const mib = AuthLimits.profilePictureMaxBytes / (1024 * 1024);
  return `Profile picture must be at most ${mib} MB.`;
}

export const NOT_AN_IMAGE_MESSAGE = 'Profile picture must be a PNG, JPEG, GIF or WebP image.';
export const DUPLICATE_EMAIL_MESSAGE = 'An account with this email already exists.';
export const REGISTERED_MESSAGE = 'Registration successful!';
