import {
  AuthLimits,
  Email,
  IMAGE_ACCEPT,
  isAcceptedImageFile,
  RegisterFields,
  RegisterMessages,
} from '@wayfarer/contracts';
import type { FormRules } from '../forms/formState';

/**
 * Client-side checks for the auth forms. Each returns a map of field name to
 * the message shown under that field; an empty map means the form may be sent.
 */

export type FieldErrors<K extends string> = Partial<Record<K, string>>;

export const MESSAGES = {
  emailRequired: 'Email is required.',
  /** The server's own words for a malformed email (contracts' Email schema). */
  emailFormat: 'Email must be a valid email address.',
  passwordRequired: 'Password is required.',
  nameRequired: 'Name is required.',
  pictureNotImage: RegisterMessages.pictureNotImage,
  pictureTooLarge: RegisterMessages.pictureTooLarge,
} as const;

/** An email auth accepts (contracts' Email: trimmed, at most 254 characters, a valid address). */
export function isValidEmail(value: string): boolean {
  return Email.safeParse(value).success;
}

/** The parts of a `File` the checks look at (so tests need no DOM). */
export interface FileLike {
  name: string;
  type: string;
  /** Bytes; checked when known. */
  size?: number;
}

/**
 * True for the image types the services decode (contracts' ImageTypes): by MIME type, or by
 * extension when the browser reports no type. HEIC, SVG, BMP... are refused as the server does.
 */
export function isImageFile(file: FileLike): boolean {
  return isAcceptedImageFile(file);
}

/** The profile picture input's `accept`: exactly the types auth takes. */
export const PICTURE_ACCEPT = IMAGE_ACCEPT;

/** The password rule shown under the field (auth's minimum, from contracts). */
export const PASSWORD_HINT = `At least ${AuthLimits.passwordMin} characters.`;

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

/** The profile picture's problem, if any: auth's image types and size, its own words. */
export function pictureProblem(file: FileLike | null | undefined): string | undefined {
  if (!file) return undefined;
  if (!isImageFile(file)) return MESSAGES.pictureNotImage;
  if (file.size !== undefined && file.size > AuthLimits.profilePictureMaxBytes) {
    return MESSAGES.pictureTooLarge;
  }
  return undefined;
}

/**
 * The register form, checked with the schema auth parses it with (contracts' RegisterFields:
 * name, email, password lengths and format), the first message per field; an empty email or
 * password says so plainly.
 */
export function validateRegister(input: RegisterInput): FieldErrors<keyof RegisterInput> {
  const errors: FieldErrors<keyof RegisterInput> = {};
  const parsed = RegisterFields.safeParse({
    name: input.name,
    email: input.email,
    password: input.password,
  });
  for (const issue of parsed.error?.issues ?? []) {
    const field = issue.path[0] as keyof RegisterInput;
    errors[field] ??= issue.message;
  }
  if (input.email.trim() === '') errors.email = MESSAGES.emailRequired;
  if (input.password === '') errors.password = MESSAGES.passwordRequired;
  const picture = pictureProblem(input.profilePicture);
  if (picture) errors.profilePicture = picture;
  return errors;
}

/** The login form's rules: typing goes on while it is sent; its success leaves the screen. */
export const loginForm: FormRules<LoginInput> = {
  validate: validateLogin,
  editableWhileSaving: true,
};

export interface RegisterValues {
  name: string;
  email: string;
  password: string;
  profilePicture: File | null;
}

/** The register form's rules: as login's, and its success ends it (the screen moves on). */
export const registerForm: FormRules<RegisterValues> = {
  validate: validateRegister,
  editableWhileSaving: true,
  once: true,
};
