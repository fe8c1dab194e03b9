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
/** A user's display name (registration and `PATCH /api/userDetails`). */
export const DisplayName = plainText()
  .trim()
  .min(1, 'Name is required.')
  .max(AuthLimits.nameMax, `Name must be at most ${AuthLimits.nameMax} characters.`);

/** A password being chosen (registration and `POST /api/password`'s `newPassword`). */
export const NewPassword = plainText()
  .min(AuthLimits.passwordMin, `Password must be at least ${AuthLimits.passwordMin} characters.`)
  .max(AuthLimits.passwordMax, `Password must be at most ${AuthLimits.passwordMax} characters.`);

export const RegisterFields = z.object({
  name: DisplayName,
  email: Email,
  password: NewPassword,
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

/*
 * Your account ("Change what you saved"): the `/settings` screen's API.
 */

/** What auth answers on the account routes (the settings screen may show the same). */
export const AccountMessages = {
  /** `PATCH /api/userDetails` with neither a name nor a picture. */
  nothingToChange: 'Send a new name, a new profile picture, or both.',
  /** `POST /api/password` and `DELETE /api/account` with a wrong (current) password: a 400. */
  wrongPassword: 'The current password is incorrect.',
  passwordRequired: 'Password is required.',
  currentPasswordRequired: 'Current password is required.',
  passwordChanged: 'Password changed. Your other sessions have been signed out.',
  /**
   * `DELETE /api/account`: what is true when it is answered (the closed-account fence is
   * written), no more: the rest of the erasure follows `user.deleted` through Kafka.
   */
  accountDeleted:
    'Your account was closed. Your share links, photos and picture are offline and nobody ' +
    'finds you in search any more; the rest of what you saved is being erased.',
} as const;

/**
 * `PATCH /api/userDetails`: multipart with `name` and/or the file `profilePicture` (the
 * registration form's limits, `REGISTER_MULTIPART_LIMITS`, and its image pipeline). At least
 * one is required. Answers `UserDetailsResponse` (`{username, profilePicture}`) as stored.
 */
export const UpdateProfileFields = z.object({ name: DisplayName.optional() });
export type UpdateProfileFields = z.infer<typeof UpdateProfileFields>;
/** The text fields `PATCH /api/userDetails` accepts (the file is `REGISTER_PICTURE_FIELD`). */
export const PROFILE_TEXT_FIELDS = ['name'] as const;

/**
 * `POST /api/password` JSON body. `currentPassword` is only compared (a wrong one is a 400
 * counted by the login throttle); `newPassword` follows the registration rules.
 */
export const ChangePasswordBody = z.object({
  currentPassword: plainText()
    .min(1, AccountMessages.currentPasswordRequired)
    .max(AuthLimits.passwordMax),
  newPassword: NewPassword,
});
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** `DELETE /api/account` JSON body: the password, confirming. */
export const DeleteAccountBody = z.object({
  password: plainText().min(1, AccountMessages.passwordRequired).max(AuthLimits.passwordMax),
});
export type DeleteAccountBody = z.infer<typeof DeleteAccountBody>;

/** `POST /api/password` and `DELETE /api/account` answer `{message}`. */
export const AccountMessageResponse = z.object({ message: z.string() });
export type AccountMessageResponse = z.infer<typeof AccountMessageResponse>;

/**
 * A user changed their name and/or picture (`PATCH /api/userDetails`): the whole profile as it
 * now is, so a consumer just overwrites its copy. `profilePicture` as in `user.registered`.
 */
export const UserUpdated = defineEvent({
  topic: Topics.authUser,
  type: 'user.updated',
  version: 1,
  payload: z.object({
    userId: z.string(),
    name: z.string(),
    profilePicture: z.string(),
  }),
});

/**
 * A user closed their account (`DELETE /api/account`): every service erases what it holds of
 * them (docs/architecture.md, "Erasure"). Carries nothing but the id.
 */
export const UserDeleted = defineEvent({
  topic: Topics.authUser,
  type: 'user.deleted',
  version: 1,
  payload: z.object({ userId: z.string() }),
});
