import { ChangePasswordBody, DeleteAccountBody, DisplayName } from '@wayfarer/contracts';
import { pictureProblem, type FileLike } from '../auth/validation';
import { hasErrors, issuesByField, type Errors, type FormRules } from '../forms/formState';

/**
 * The settings screen's forms (`/settings`), free of React so their rules are unit
 * tested. Each form (profile, password, closing the account) is the app's one form machine
 * (`forms/formState`) with its rules here: the messages of its fields as auth checks them
 * (contracts' schemas). Closing the account asks first (`confirm`): Save opens the question,
 * Yes sends.
 */

// ---------- profile: name and picture ----------

export interface ProfileValues<F extends FileLike = File> {
  name: string;
  picture: F | null;
  /** The name as saved (only a changed name is sent). */
  savedName: string;
}

export const SETTINGS_TEXTS = {
  profileSaved: 'Your profile was saved.',
  nothingToChange: 'Change your name or choose a new picture first.',
  passwordsDiffer: 'The new passwords do not match.',
  sameAsCurrent: 'The new password is the same as the current one.',
  confirmRequired: 'Type the new password again.',
  closeTitle: 'Close your account?',
  closeConfirm: 'Close my account',
  closeFailed: 'Your account could not be closed. Please try again.',
  saveFailed: 'The change could not be saved. Please try again.',
  /** What closing erases, as the services do on `user.deleted`. */
  erased: [
    'your profile: name, picture, email and password',
    'your trips, their destinations, photos and journals',
    'your bucket list and itineraries',
    'your friendships and friend requests',
    'your conversations',
  ],
} as const;

/** What a profile Save sends: a changed name and/or a new picture, or null for nothing. */
export function profileChanges<F extends FileLike>(
  values: ProfileValues<F>,
): { name?: string; picture?: F } | null {
  const name = values.name.trim();
  const changes: { name?: string; picture?: F } = {};
  if (name !== values.savedName) changes.name = name;
  if (values.picture) changes.picture = values.picture;
  return Object.keys(changes).length > 0 ? changes : null;
}

export function validateProfile<F extends FileLike>(
  values: ProfileValues<F>,
): Errors<ProfileValues<F>> {
  const errors: Errors<ProfileValues<F>> = {};
  const name = DisplayName.safeParse(values.name);
  if (!name.success) errors.name = name.error.issues[0]?.message;
  const picture = pictureProblem(values.picture);
  if (picture) errors.picture = picture;
  if (!hasErrors(errors) && profileChanges(values) === null) {
    errors.name = SETTINGS_TEXTS.nothingToChange;
  }
  return errors;
}

export const profileForm: FormRules<ProfileValues> = { validate: validateProfile };

// ---------- password ----------

export interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}

export const emptyPasswords: PasswordValues = {
  currentPassword: '',
  newPassword: '',
  confirmPassword: '',
};

/** The password change as auth checks it (ChangePasswordBody: the registration's rules). */
export function validatePassword(values: PasswordValues): Errors<PasswordValues> {
  const parsed = ChangePasswordBody.safeParse({
    currentPassword: values.currentPassword,
    newPassword: values.newPassword,
  });
  const errors = issuesByField<PasswordValues>(parsed.error?.issues ?? []);
  if (!errors.newPassword && values.newPassword === values.currentPassword) {
    errors.newPassword = SETTINGS_TEXTS.sameAsCurrent;
  }
  if (values.confirmPassword === '') errors.confirmPassword = SETTINGS_TEXTS.confirmRequired;
  else if (values.confirmPassword !== values.newPassword) {
    errors.confirmPassword = SETTINGS_TEXTS.passwordsDiffer;
  }
  return errors;
}

export const passwordForm: FormRules<PasswordValues> = { validate: validatePassword };

// ---------- closing the account ----------

export interface CloseValues {
  password: string;
}

export function validateClose(values: CloseValues): Errors<CloseValues> {
  return issuesByField<CloseValues>(DeleteAccountBody.safeParse(values).error?.issues ?? []);
}

export const closeForm: FormRules<CloseValues> = { validate: validateClose, confirm: true };
