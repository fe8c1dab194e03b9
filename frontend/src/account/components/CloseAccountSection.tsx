import { AuthLimits } from '@wayfarer/contracts';
import { useNavigate } from 'react-router-dom';
import { clearUserId } from '../../auth/session';
import type { LandingLocationState } from '../../landing/Landing';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field } from '../../components/Field';
import { TrashIcon } from '../../components/icons';
import { failureMessage } from '../../trips/api';
import { closeAccount, isWrongPassword } from '../api';
import { useForm } from '../../forms/useForm';
import { closeForm, SETTINGS_TEXTS, type CloseValues } from '../settingsState';
import { SectionStatus } from './SectionStatus';

const FIELDS = ['password'] as const;
const EMPTY: CloseValues = { password: '' };

function Erased() {
  return (
    <ul className="settings-erased">
      {SETTINGS_TEXTS.erased.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

/**
 * Closing the account (`DELETE /api/account`): what is erased said plainly, the password typed,
 * then a last question; once closed the session is gone and the visitor is on `/home`.
 */
export function CloseAccountSection() {
  const navigate = useNavigate();
  const { state, dispatch, refs, bind, submit } = useForm(closeForm, FIELDS, EMPTY, {
    send: async (values) => {
      // what auth says has happened (public pages offline, the rest being erased) is shown there
      const { message } = await closeAccount(values.password);
      clearUserId();
      const landing: LandingLocationState = { notice: message };
      navigate('/home', { replace: true, state: landing });
      return null;
    },
    failure: (error) => {
      // the question closes; the password field is where to act
      window.setTimeout(() => refs.password.current?.focus());
      return isWrongPassword(error)
        ? { message: failureMessage(error, ''), field: 'password' }
        : { message: failureMessage(error, SETTINGS_TEXTS.closeFailed) };
    },
    logAs: 'save the settings',
  });

  return (
    <section className="form-card settings-card settings-danger" aria-labelledby="settings-close">
      <h2 className="form-card-title" id="settings-close">
        Close your account
      </h2>
      <div className="settings-warning" id="settings-close-warning">
        <p>Closing your account erases, for good:</p>
        <Erased />
        <p>Your friends no longer see you. This can&apos;t be undone.</p>
      </div>
      <form className="settings-form" noValidate onSubmit={submit}>
        <Field
          {...bind('password')}
          label="Your password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={AuthLimits.passwordMax}
          hint="The one you sign in with: it confirms it is you."
        />
        <SectionStatus failure={state.failure} notice={null} />
        <div className="form-actions">
          <button
            type="submit"
            className="btn btn-danger"
            aria-describedby="settings-close-warning"
          >
            <TrashIcon />
            Close account
          </button>
        </div>
      </form>
      <ConfirmDialog
        open={state.confirming}
        title={SETTINGS_TEXTS.closeTitle}
        description={
          <>
            <p>
              You are signed out and your share links, photos and picture go offline at once; then
              everything below is erased:
            </p>
            <Erased />
          </>
        }
        confirmLabel={SETTINGS_TEXTS.closeConfirm}
        cancelLabel="No, keep it"
        busy={state.saving}
        onConfirm={() => dispatch({ type: 'confirm' })}
        onCancel={() => dispatch({ type: 'cancel' })}
      />
    </section>
  );
}
