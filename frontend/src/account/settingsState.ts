import { ChangePasswordBody, DeleteAccountBody, DisplayName } from '@wayfarer/contracts';
import { pictureProblem, type FileLike } from '../auth/validation';

/**
 * The settings screen's forms (`/settings`), free of React so their rules are unit
 * tested. Each form (profile, password, closing the account) is the same small machine
 * (`settingsFormReducer`): values, the messages of its fields (checked as auth checks them,
 * contracts' schemas, the first message per field, again on each change once Save was tried),
 * one request at a time, a failure that keeps what was typed, and a success note. Closing the
 * account asks first (`confirm`): Save opens the question, Yes sends.
 */

export type Errors<V> = Partial<Record<keyof V & string, string>>;

export interface SettingsFormState<V> {
  values: V;
  errors: Errors<V>;
  /** Save was tried: the fields are checked again as they change. */
  attempted: boolean;
  /** The question before sending is open (closing the account). */
  confirming: boolean;
  saving: boolean;
  /** Why the last request failed (not about one field). */
  failure: string | null;
  /** The last request's success note. */
  notice: string | null;
}

export type SettingsFormAction<V> =
  | { [K in keyof V]: { type: 'set'; field: K; value: V[K] } }[keyof V]
  /** New values to start from (the user's details arrived or changed). */
  | { type: 'reset'; values: V }
  | { type: 'submit' }
  | { type: 'confirm' }
  | { type: 'cancel' }
  | { type: 'saved'; notice: string; values: V }
  /** `field`: the message is about one field (a wrong password). */
  | { type: 'failed'; message: string; field?: keyof V & string };

export interface SettingsForm<V> {
  validate: (values: V) => Errors<V>;
  /** Save asks first (`confirming`); `confirm` sends. */
  confirm?: boolean;
}

export function initialSettingsForm<V>(values: V): SettingsFormState<V> {
  return {
    values,
    errors: {},
    attempted: false,
    confirming: false,
    saving: false,
    failure: null,
    notice: null,
  };
}

export const hasErrors = <V>(errors: Errors<V>): boolean => Object.values(errors).some(Boolean);

/** The reducer of one settings form with its rules. */
export function settingsFormReducer<V>(form: SettingsForm<V>) {
  return (state: SettingsFormState<V>, action: SettingsFormAction<V>): SettingsFormState<V> => {
    switch (action.type) {
      case 'set': {
        if (state.saving) return state;
        const values = { ...state.values, [action.field]: action.value };
        return {
          ...state,
          values,
          errors: state.attempted ? form.validate(values) : {},
          notice: null,
        };
      }
      case 'reset':
        return state.saving ? state : initialSettingsForm(action.values);
      case 'submit': {
        if (state.saving || state.confirming) return state;
        const errors = form.validate(state.values);
        if (hasErrors(errors)) {
          return { ...state, errors, attempted: true, failure: null, notice: null };
        }
        return {
          ...state,
          errors,
          attempted: true,
          failure: null,
          notice: null,
          ...(form.confirm ? { confirming: true } : { saving: true }),
        };
      }
      case 'confirm':
        return state.confirming && !state.saving ? { ...state, saving: true } : state;
      case 'cancel':
        return state.saving ? state : { ...state, confirming: false };
      case 'saved':
        return { ...initialSettingsForm(action.values), notice: action.notice };
      case 'failed':
        return {
          ...state,
          saving: false,
          confirming: false,
          ...(action.field
            ? { errors: { ...state.errors, [action.field]: action.message }, failure: null }
            : { failure: action.message }),
        };
    }
  };
}

/** The first message per field of a failed parse. */
function issuesByField<V>(issues: readonly { path: PropertyKey[]; message: string }[]): Errors<V> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? '');
    errors[field] ??= issue.message;
  }
  return errors as Errors<V>;
}

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

export const profileForm: SettingsForm<ProfileValues> = { validate: validateProfile };

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

export const passwordForm: SettingsForm<PasswordValues> = { validate: validatePassword };

// ---------- closing the account ----------

export interface CloseValues {
  password: string;
}

export function validateClose(values: CloseValues): Errors<CloseValues> {
  return issuesByField<CloseValues>(DeleteAccountBody.safeParse(values).error?.issues ?? []);
}

export const closeForm: SettingsForm<CloseValues> = { validate: validateClose, confirm: true };
