import { AuthLimits } from '@wayfarer/contracts';
import { useReducer, useRef, type FormEvent } from 'react';
import { PASSWORD_HINT } from '../../auth/validation';
import { Field } from '../../components/Field';
import { failureMessage } from '../../trips/api';
import { changePassword, isWrongPassword } from '../api';
import {
  emptyPasswords,
  initialSettingsForm,
  passwordForm,
  SETTINGS_TEXTS,
  settingsFormReducer,
  type PasswordValues,
} from '../settingsState';
import { useFormSend } from '../useFormSend';
import { SectionStatus } from './SectionStatus';

const reducer = settingsFormReducer(passwordForm);
const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/**
 * Changing the password (`POST /api/password`): the current one, the new one by the
 * registration's rules, typed twice. Every other session is signed out; this one stays.
 */
export function PasswordSection() {
  const [state, dispatch] = useReducer(reducer, emptyPasswords, initialSettingsForm);
  const refs = {
    currentPassword: useRef<HTMLInputElement>(null),
    newPassword: useRef<HTMLInputElement>(null),
    confirmPassword: useRef<HTMLInputElement>(null),
  };
  const { values, errors } = state;

  useFormSend<PasswordValues>(
    state.saving,
    dispatch,
    async () => {
      const answer = await changePassword(values.currentPassword, values.newPassword);
      return { notice: answer.message, values: emptyPasswords };
    },
    (error) => {
      if (isWrongPassword(error)) {
        refs.currentPassword.current?.focus();
        return { message: failureMessage(error, ''), field: 'currentPassword' };
      }
      return { message: failureMessage(error, SETTINGS_TEXTS.saveFailed) };
    },
  );

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const found = passwordForm.validate(values);
    dispatch({ type: 'submit' });
    const first = FIELDS.find((field) => found[field]);
    if (first) refs[first].current?.focus();
  };

  const field = (name: keyof PasswordValues, label: string, autoComplete: string) => (
    <Field
      ref={refs[name]}
      label={label}
      type="password"
      name={name}
      autoComplete={autoComplete}
      required
      maxLength={AuthLimits.passwordMax}
      hint={name === 'newPassword' ? PASSWORD_HINT : undefined}
      value={values[name]}
      error={errors[name]}
      onChange={(event) => dispatch({ type: 'set', field: name, value: event.target.value })}
    />
  );

  return (
    <section className="form-card settings-card" aria-labelledby="settings-password">
      <h2 className="form-card-title" id="settings-password">
        Password
      </h2>
      <form className="settings-form" noValidate onSubmit={onSubmit}>
        {field('currentPassword', 'Current password', 'current-password')}
        {field('newPassword', 'New password', 'new-password')}
        {field('confirmPassword', 'Confirm new password', 'new-password')}
        <SectionStatus failure={state.failure} notice={state.notice} />
        <div className="form-actions">
          <button
            type="submit"
            className="btn btn-primary"
            aria-disabled={state.saving || undefined}
          >
            {state.saving ? (
              <>
                <span className="btn-spinner" aria-hidden="true" />
                Changing...
              </>
            ) : (
              'Change password'
            )}
          </button>
        </div>
      </form>
    </section>
  );
}
