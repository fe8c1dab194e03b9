import { AuthLimits } from '@wayfarer/contracts';
import { PASSWORD_HINT } from '../../auth/validation';
import { Field } from '../../components/Field';
import { failureMessage } from '../../trips/api';
import { changePassword, isWrongPassword } from '../api';
import { useForm } from '../../forms/useForm';
import {
  emptyPasswords,
  passwordForm,
  SETTINGS_TEXTS,
  type PasswordValues,
} from '../settingsState';
import { SaveButton, SectionStatus } from './SectionStatus';

const FIELDS = ['currentPassword', 'newPassword', 'confirmPassword'] as const;

/**
 * Changing the password (`POST /api/password`): the current one, the new one by the
 * registration's rules, typed twice. Every other session is signed out; this one stays.
 */
export function PasswordSection() {
  const { state, refs, bind, submit } = useForm(passwordForm, FIELDS, emptyPasswords, {
    send: async (values) => {
      const answer = await changePassword(values.currentPassword, values.newPassword);
      return { notice: answer.message, values: emptyPasswords };
    },
    failure: (error) => {
      if (isWrongPassword(error)) {
        refs.currentPassword.current?.focus();
        return { message: failureMessage(error, ''), field: 'currentPassword' };
      }
      return { message: failureMessage(error, SETTINGS_TEXTS.saveFailed) };
    },
    logAs: 'save the settings',
  });
  const field = (name: keyof PasswordValues, label: string, autoComplete: string) => (
    <Field
      {...bind(name)}
      label={label}
      type="password"
      autoComplete={autoComplete}
      required
      maxLength={AuthLimits.passwordMax}
      hint={name === 'newPassword' ? PASSWORD_HINT : undefined}
    />
  );

  return (
    <section className="form-card settings-card" aria-labelledby="settings-password">
      <h2 className="form-card-title" id="settings-password">
        Password
      </h2>
      <form className="settings-form" noValidate onSubmit={submit}>
        {field('currentPassword', 'Current password', 'current-password')}
        {field('newPassword', 'New password', 'new-password')}
        {field('confirmPassword', 'Confirm new password', 'new-password')}
        <SectionStatus failure={state.failure} notice={state.notice} />
        <div className="form-actions">
          <SaveButton saving={state.saving} busyLabel="Changing..." label="Change password" />
        </div>
      </form>
    </section>
  );
}
