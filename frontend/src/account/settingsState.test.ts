import { AccountMessages, RegisterMessages } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import type { FileLike } from '../auth/validation';
import {
  formReducer as settingsFormReducer,
  initialForm as initialSettingsForm,
  type FormAction as SettingsFormAction,
  type FormState as SettingsFormState,
} from '../forms/formState';
import {
  closeForm,
  emptyPasswords,
  passwordForm,
  profileChanges,
  profileForm,
  SETTINGS_TEXTS,
  validatePassword,
  validateProfile,
  type CloseValues,
  type PasswordValues,
  type ProfileValues,
} from './settingsState';

const png = (name = 'me.png', size = 1000, type = 'image/png'): FileLike => ({ name, type, size });
const profile = (over: Partial<ProfileValues<FileLike>> = {}): ProfileValues<FileLike> => ({
  name: 'Ada',
  picture: null,
  savedName: 'Ada',
  ...over,
});

function run<V>(
  reducer: (s: SettingsFormState<V>, a: SettingsFormAction<V>) => SettingsFormState<V>,
  from: SettingsFormState<V>,
  actions: SettingsFormAction<V>[],
) {
  return actions.reduce(reducer, from);
}

describe('profile: name and picture', () => {
  it('sends only what changed: a new name (trimmed) and/or a picture', () => {
    expect(profileChanges(profile())).toBeNull();
    expect(profileChanges(profile({ name: '  Ada  ' }))).toBeNull();
    expect(profileChanges(profile({ name: ' Ada L. ' }))).toEqual({ name: 'Ada L.' });
    const picture = png();
    expect(profileChanges(profile({ picture }))).toEqual({ picture });
  });

  it("checks the name and picture as auth does, and says when there's nothing to save", () => {
    expect(validateProfile(profile({ name: '  ' })).name).toBe('Name is required.');
    expect(validateProfile(profile({ name: 'x'.repeat(81) })).name).toBe(
      'Name must be at most 80 characters.',
    );
    expect(validateProfile(profile({ picture: png('me.svg', 100, 'image/svg+xml') })).picture).toBe(
      RegisterMessages.pictureNotImage,
    );
    expect(validateProfile(profile({ picture: png('me.png', 6 * 1024 * 1024) })).picture).toBe(
      RegisterMessages.pictureTooLarge,
    );
    expect(validateProfile(profile()).name).toBe(SETTINGS_TEXTS.nothingToChange);
    expect(validateProfile(profile({ name: 'Ada L.' }))).toEqual({});
  });

  it('saves once, keeps what was typed on a failure, and starts from the saved details after', () => {
    const reducer = settingsFormReducer(profileForm);
    const start = initialSettingsForm<ProfileValues>({
      name: 'Ada',
      picture: null,
      savedName: 'Ada',
    });
    // nothing changed: no request, the message under the name
    const refused = run(reducer, start, [{ type: 'submit' }]);
    expect(refused.saving).toBe(false);
    expect(refused.errors.name).toBe(SETTINGS_TEXTS.nothingToChange);
    // once tried, the fields are checked as they change
    const typed = run(reducer, refused, [{ type: 'set', field: 'name', value: 'Ada L.' }]);
    expect(typed.errors).toEqual({});
    const saving = run(reducer, typed, [{ type: 'submit' }]);
    expect(saving.saving).toBe(true);
    expect(run(reducer, saving, [{ type: 'submit' }])).toBe(saving);
    expect(run(reducer, saving, [{ type: 'set', field: 'name', value: 'x' }])).toBe(saving);
    const failed = run(reducer, saving, [{ type: 'failed', message: 'Auth is down.' }]);
    expect(failed).toMatchObject({ saving: false, failure: 'Auth is down.' });
    expect(failed.values.name).toBe('Ada L.');
    const saved = run(reducer, failed, [
      { type: 'submit' },
      {
        type: 'saved',
        notice: SETTINGS_TEXTS.profileSaved,
        values: { name: 'Ada L.', picture: null, savedName: 'Ada L.' },
      },
    ]);
    expect(saved).toMatchObject({
      saving: false,
      failure: null,
      notice: SETTINGS_TEXTS.profileSaved,
      attempted: false,
      values: { name: 'Ada L.', savedName: 'Ada L.' },
    });
    // typing again clears the note
    expect(run(reducer, saved, [{ type: 'set', field: 'name', value: 'A' }]).notice).toBeNull();
  });
});

describe('password', () => {
  const values = (over: Partial<PasswordValues>): PasswordValues => ({
    currentPassword: 'old password',
    newPassword: 'a new password',
    confirmPassword: 'a new password',
    ...over,
  });

  it("follows the registration's rules, typed twice, and differs from the current one", () => {
    expect(validatePassword(values({}))).toEqual({});
    expect(validatePassword(values({ currentPassword: '' })).currentPassword).toBe(
      AccountMessages.currentPasswordRequired,
    );
    expect(
      validatePassword(values({ newPassword: 'short', confirmPassword: 'short' })).newPassword,
    ).toBe('Password must be at least 8 characters.');
    expect(validatePassword(values({ confirmPassword: 'a new passwor' })).confirmPassword).toBe(
      SETTINGS_TEXTS.passwordsDiffer,
    );
    expect(validatePassword(values({ confirmPassword: '' })).confirmPassword).toBe(
      SETTINGS_TEXTS.confirmRequired,
    );
    expect(
      validatePassword(values({ newPassword: 'old password', confirmPassword: 'old password' }))
        .newPassword,
    ).toBe(SETTINGS_TEXTS.sameAsCurrent);
  });

  it('puts a wrong current password under its field, and empties the form once changed', () => {
    const reducer = settingsFormReducer(passwordForm);
    const saving = run(reducer, initialSettingsForm(emptyPasswords), [
      { type: 'set', field: 'currentPassword', value: 'old password' },
      { type: 'set', field: 'newPassword', value: 'a new password' },
      { type: 'set', field: 'confirmPassword', value: 'a new password' },
      { type: 'submit' },
    ]);
    expect(saving.saving).toBe(true);
    const wrong = run(reducer, saving, [
      { type: 'failed', message: AccountMessages.wrongPassword, field: 'currentPassword' },
    ]);
    expect(wrong.errors.currentPassword).toBe(AccountMessages.wrongPassword);
    expect(wrong.failure).toBeNull();
    expect(wrong.values.newPassword).toBe('a new password');
    const changed = run(reducer, wrong, [
      { type: 'submit' },
      { type: 'saved', notice: AccountMessages.passwordChanged, values: emptyPasswords },
    ]);
    expect(changed.values).toEqual(emptyPasswords);
    expect(changed.notice).toBe(AccountMessages.passwordChanged);
  });
});

describe('closing the account', () => {
  const reducer = settingsFormReducer(closeForm);
  const start = initialSettingsForm<CloseValues>({ password: '' });

  it('needs the password, then asks before sending', () => {
    const empty = run(reducer, start, [{ type: 'submit' }]);
    expect(empty.errors.password).toBe(AccountMessages.passwordRequired);
    expect(empty.confirming).toBe(false);

    const asking = run(reducer, empty, [
      { type: 'set', field: 'password', value: 'a long password' },
      { type: 'submit' },
    ]);
    expect(asking).toMatchObject({ confirming: true, saving: false });
    // No keeps the account
    expect(run(reducer, asking, [{ type: 'cancel' }])).toMatchObject({
      confirming: false,
      saving: false,
    });
    // Yes sends; the question cannot be dismissed meanwhile
    const closing = run(reducer, asking, [{ type: 'confirm' }]);
    expect(closing).toMatchObject({ confirming: true, saving: true });
    expect(run(reducer, closing, [{ type: 'cancel' }])).toBe(closing);
    // a confirm without the question asked sends nothing
    expect(run(reducer, start, [{ type: 'confirm' }]).saving).toBe(false);
  });

  it('a wrong password closes the question and is said under the field', () => {
    const failed = run(reducer, start, [
      { type: 'set', field: 'password', value: 'a wrong password' },
      { type: 'submit' },
      { type: 'confirm' },
      { type: 'failed', message: AccountMessages.wrongPassword, field: 'password' },
    ]);
    expect(failed).toMatchObject({ confirming: false, saving: false });
    expect(failed.errors.password).toBe(AccountMessages.wrongPassword);
  });
});
