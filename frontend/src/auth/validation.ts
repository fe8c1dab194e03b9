/**
 * Client-side checks for the auth forms (spec section 5). Each returns a map of field name to
 * the message shown under that field; an empty map means the form may be sent.
 */

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export const MESSAGES = {
  emailRequired: 'Email is required.',
  emailFormat: 'Enter a valid email address.',
  passwordRequired: 'Password is required.',
  nameRequired: 'Name is required.',
  pictureNotImage: 'Profile picture must be an image file (for example JPG, PNG, GIF or WebP).',
} as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value.trim());
}

/** The parts of a `File` the checks look at (so tests need no DOM). */
export interface FileLike {
  name: string;
  type: string;
}

const IMAGE_EXTENSIONS = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'webp',
  'avif',
  'bmp',
  'svg',
  'heic',
  'heif',
];

/** True for image files: by MIME type, or by extension when the browser reports no type. */
export function isImageFile(file: FileLike): boolean {
  const type = file.type.trim().toLowerCase();
  if (type !== '') return type.startsWith('image/');
  const ext = file.name.toLowerCase().split('.').pop() ?? '';
  return file.name.includes('.') && IMAGE_EXTENSIONS.includes(ext);
}

export function hasErrors<K extends string>(errors: FieldErrors<K>): boolean {
  return Object.values(errors).some(Boolean);
}

export interface LoginInput {
  email: string;
  password: string;
}

export function validateLogin(input: LoginInput): FieldErrors<keyof LoginInput> {
  const errors: FieldErrors<keyof LoginInput> = {};
  if (input.email.trim() === '') errors.email = MESSAGES.emailRequired;
  else if (!isValidEmail(input.email)) errors.email = MESSAGES.emailFormat;
  if (input.password === '') errors.password = MESSAGES.passwordRequired;
  return errors;
}

export interface RegisterInput {
  name: string;
  email: string;
  password: string;
  profilePicture?: FileLike | null;
}

export function validateRegister(input: RegisterInput): FieldErrors<keyof RegisterInput> {
  const errors: FieldErrors<keyof RegisterInput> = {};
  if (input.name.trim() === '') errors.name = MESSAGES.nameRequired;
  if (input.email.trim() === '') errors.email = MESSAGES.emailRequired;
  else if (!isValidEmail(input.email)) errors.email = MESSAGES.emailFormat;
  if (input.password === '') errors.password = MESSAGES.passwordRequired;
  if (input.profilePicture && !isImageFile(input.profilePicture)) {
    errors.profilePicture = MESSAGES.pictureNotImage;
  }
  return errors;
}
