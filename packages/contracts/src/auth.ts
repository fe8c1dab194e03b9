import { z } from 'zod';
import { defineEvent, Topics } from './events';
import { plainText } from './text';

/** Limits shared by the client and the auth service. */
export const AuthLimits = {
  nameMax: 80,
  emailMax: 254,
  passwordMin: 8,
  passwordMax: 256,
  /** Profile pictures: images only, at most 5 MiB. */
  profilePictureMaxBytes: 5 * 1024 * 1024,
} as const;

/** What auth answers about a profile picture it refuses (the register form shows the same). */
export const RegisterMessages = {
  pictureNotImage: 'Profile picture must be a PNG, JPEG, GIF or WebP image.',
  pictureTooLarge: `Profile picture must be at most ${AuthLimits.profilePictureMaxBytes / (1024 * 1024)} MB.`,
} as const;

export const Email = plainText()
  .trim()
  .toLowerCase()
  .max(AuthLimits.emailMax, 'Email is too long.')
  .pipe(z.email('Email must be a valid email address.'));

/** Text fields of `POST /api/register` (multipart; profilePicture is a separate file part). */
export const RegisterFields = z.object({
  name: plainText()
    .trim()
    .min(1, 'Name is required.')
    .max(AuthLimits.nameMax, `Name must be at most ${AuthLimits.nameMax} characters.`),
  email: Email,
  password: plainText()
    .min(AuthLimits.passwordMin, `Password must be at least ${AuthLimits.passwordMin} characters.`)
    .max(AuthLimits.passwordMax, `Password must be at most ${AuthLimits.passwordMax} characters.`),
});
export type RegisterFields = z.infer<typeof RegisterFields>;

export const RegisterResponse = z.object({ userId: z.string(), message: z.string() });
export type RegisterResponse = z.infer<typeof RegisterResponse>;

/** `POST /api/login` JSON body. Password length is not checked here: a wrong one is just wrong. */
export const LoginBody = z.object({
  email: Email,
  password: plainText().min(1, 'Password is required.').max(AuthLimits.passwordMax),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const LoginResponse = z.object({
  user: z.object({ id: z.string() }),
  message: z.string(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

export const ProtectedResponse = z.object({ ok: z.literal(true), userId: z.string() });
export type ProtectedResponse = z.infer<typeof ProtectedResponse>;

export const UserDetailsResponse = z.object({
  username: z.string(),
  profilePicture: z.string(),
});
export type UserDetailsResponse = z.infer<typeof UserDetailsResponse>;

/** The avatar shown when a user has no picture (served by the frontend). */
export const DEFAULT_AVATAR = '/default-avatar.svg';

export const UserRegistered = defineEvent({
  topic: Topics.authUser,
  type: 'user.registered',
  version: 1,
  payload: z.object({
    userId: z.string(),
    name: z.string(),
    email: z.string(),
    profilePicture: z.string(),
  }),
});
