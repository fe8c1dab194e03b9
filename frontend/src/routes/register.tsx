import { Link, useNavigate } from 'react-router-dom';
import { AuthLimits } from '@wayfarer/contracts';
import { ApiError, apiFetch } from '../api/client';
import { setUserId } from '../auth/session';
import { PictureField } from '../auth/PictureField';
import {
  PASSWORD_HINT,
  pictureProblem,
  registerForm,
  type RegisterValues,
} from '../auth/validation';
import { Field } from '../components/Field';
import { AuthLayout } from '../components/AuthLayout';
import { FormAlert } from '../forms/FormAlert';
import { useForm } from '../forms/useForm';

interface RegisterAnswer {
  userId?: string | number;
  message?: string;
}

const REGISTER_FAILED = 'Registration failed';
const REGISTER_OK = 'Registration successful!';
/** How long the success note stays in view before moving on to /trips. */
const SUCCESS_PAUSE_MS = 700;
const FIELDS = ['name', 'email', 'password', 'profilePicture'] as const;
const EMPTY: RegisterValues = { name: '', email: '', password: '', profilePicture: null };

async function signUp(values: RegisterValues): Promise<void> {
  const body = new FormData();
  body.append('name', values.name.trim());
  body.append('email', values.email.trim());
  body.append('password', values.password);
  if (values.profilePicture) body.append('profilePicture', values.profilePicture);
  const answer = await apiFetch<RegisterAnswer>('/api/register', { method: 'POST', body });
  if (answer?.userId !== undefined && answer.userId !== null) {
    setUserId(String(answer.userId));
  }
}

export function Component() {
  const navigate = useNavigate();
  const { state, refs, set, clearFile, bind, submit } = useForm(registerForm, FIELDS, EMPTY, {
    send: async (values) => {
      await signUp(values);
      window.setTimeout(() => navigate('/trips'), SUCCESS_PAUSE_MS);
      return { notice: REGISTER_OK, values };
    },
    failure: (err) => ({
      message: err instanceof ApiError && err.serverMessage ? err.serverMessage : REGISTER_FAILED,
    }),
  });
  const { values, errors, failure, saving, notice: success } = state;
  const picture = values.profilePicture;

  return (
    <AuthLayout
      title="Create your account"
      subtitle="Start mapping your trips and sharing them with friends."
      footer={
        <>
          Already have an account? <Link to="/login">Log In</Link>
        </>
      }
    >
      <form className="auth-form" noValidate onSubmit={submit}>
        <FormAlert failure={failure} />
        {success ? (
          <div className="form-success" role="status">
            {success}
          </div>
        ) : null}
        <Field
          {...bind('name')}
          label="Name"
          autoComplete="name"
          required
          maxLength={AuthLimits.nameMax}
        />
        <Field
          {...bind('email')}
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          maxLength={AuthLimits.emailMax}
        />
        <Field
          {...bind('password')}
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={AuthLimits.passwordMin}
          maxLength={AuthLimits.passwordMax}
          hint={PASSWORD_HINT}
        />

        <PictureField
          optional
          file={picture}
          // a type or size auth refuses is said at once, and blocks the form until replaced
          error={errors.profilePicture ?? pictureProblem(picture)}
          inputRef={refs.profilePicture}
          onChange={(file) => set('profilePicture', file)}
          onRemove={() => clearFile('profilePicture')}
        />

        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={saving || success !== null}
        >
          {saving ? 'Signing up...' : 'Sign Up'}
        </button>
      </form>
    </AuthLayout>
  );
}
