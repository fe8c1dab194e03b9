import { useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { apiFetch } from '../api/client';
import { setUserId } from '../auth/session';
import { hasErrors, validateLogin, type FieldErrors, type LoginInput } from '../auth/validation';
import { Field } from '../components/Field';
import { AuthLayout } from '../components/AuthLayout';

interface LoginAnswer {
  user?: { id?: string | number };
  message?: string;
}

const LOGIN_FAILED = 'Invalid login details.';

export function Component() {
  const [values, setValues] = useState<LoginInput>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors<keyof LoginInput>>({});
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  const update = (field: keyof LoginInput, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (attempted) setErrors(validateLogin(next));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting) return;
    setAttempted(true);
    const found = validateLogin(values);
    setErrors(found);
    if (hasErrors(found)) {
      (found.email ? emailRef : passwordRef).current?.focus();
      return;
    }

    setSubmitting(true);
    setFailure(null);
    try {
      const answer = await apiFetch<LoginAnswer>('/api/login', {
        method: 'POST',
        json: { email: values.email.trim(), password: values.password },
      });
      const id = answer?.user?.id;
      if (id === undefined || id === null || id === '') throw new Error('No user id in answer');
      setUserId(String(id));
      // the user id is stored, then the whole page loads again on /trips
      window.location.assign('/trips');
    } catch {
      setFailure(LOGIN_FAILED);
      setSubmitting(false);
    }
  };

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
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        {failure ? (
          <div className="form-alert" role="alert">
            {failure}
          </div>
        ) : null}
        <Field
          ref={emailRef}
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={values.email}
          error={errors.email}
          onChange={(e) => update('email', e.target.value)}
        />
        <Field
          ref={passwordRef}
          label="Password"
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={values.password}
          error={errors.password}
          onChange={(e) => update('password', e.target.value)}
        />
        <button type="submit" className="btn btn-primary btn-block" disabled={submitting}>
          {submitting ? 'Logging in...' : 'Log In'}
        </button>
      </form>
    </AuthLayout>
  );
}
