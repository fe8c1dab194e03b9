import { Link } from 'react-router-dom';
import { apiFetch } from '../api/client';
import { setUserId } from '../auth/session';
import { loginForm, type LoginInput } from '../auth/validation';
import { Field } from '../components/Field';
import { AuthLayout } from '../components/AuthLayout';
import { FormAlert } from '../forms/FormAlert';
import { useForm } from '../forms/useForm';

interface LoginAnswer {
  user?: { id?: string | number };
  message?: string;
}

const LOGIN_FAILED = 'Invalid login details.';
const EMPTY: LoginInput = { email: '', password: '' };

const FIELDS = ['email', 'password'] as const;

async function logIn(values: LoginInput): Promise<null> {
  const answer = await apiFetch<LoginAnswer>('/api/login', {
    method: 'POST',
    json: { email: values.email.trim(), password: values.password },
  });
  const id = answer?.user?.id;
  if (id === undefined || id === null || id === '') throw new Error('No user id in answer');
  setUserId(String(id));
  // the user id is stored, then the whole page loads again on /trips
  window.location.assign('/trips');
  return null;
}

export function Component() {
  const { state, bind, submit } = useForm(loginForm, FIELDS, EMPTY, {
    send: logIn,
    failure: () => ({ message: LOGIN_FAILED }),
  });
  const { failure, saving } = state;

  return (
    <AuthLayout
      title="Welcome back"
      subtitle="Log in to pick up where your journeys left off."
      footer={
        <>
          New to Wayfarer? <Link to="/register">Sign Up</Link>
        </>
      }
    >
      <form className="auth-form" noValidate onSubmit={submit}>
        <FormAlert failure={failure} />
        <Field
          {...bind('email')}
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          required
        />
        <Field
          {...bind('password')}
          label="Password"
          type="password"
          autoComplete="current-password"
          required
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={saving}>
          {saving ? 'Logging in...' : 'Log In'}
        </button>
      </form>
    </AuthLayout>
  );
}
