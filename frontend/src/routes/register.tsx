import { useRef, useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AuthLimits } from '@wayfarer/contracts';
import { ApiError, apiFetch } from '../api/client';
import { setUserId } from '../auth/session';
import { PictureField } from '../auth/PictureField';
import {
  PASSWORD_HINT,
  hasErrors,
  pictureProblem,
  validateRegister,
  type FieldErrors,
  type RegisterInput,
} from '../auth/validation';
import { Field } from '../components/Field';
import { AuthLayout } from '../components/AuthLayout';

interface RegisterAnswer {
  userId?: string | number;
  message?: string;
}

type TextField = 'name' | 'email' | 'password';
type Errors = FieldErrors<keyof RegisterInput>;

const REGISTER_FAILED = 'Registration failed';
const REGISTER_OK = 'Registration successful!';
/** How long the success note stays in view before moving on to /trips. */
const SUCCESS_PAUSE_MS = 700;

export function Component() {
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<TextField, string>>({
    name: '',
    email: '',
    password: '',
  });
  const [picture, setPicture] = useState<File | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const [attempted, setAttempted] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useState<string | null>(null);

  const refs = {
    name: useRef<HTMLInputElement>(null),
    email: useRef<HTMLInputElement>(null),
    password: useRef<HTMLInputElement>(null),
    profilePicture: useRef<HTMLInputElement>(null),
  };

  const update = (field: TextField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    if (attempted) setErrors(validateRegister({ ...next, profilePicture: picture }));
  };

  const onPictureChange = (file: File | null) => {
    setPicture(file);
    // Types and sizes auth refuses are rejected right away (and keep blocking the form until
    // the picture is replaced or removed).
    setErrors((prev) => ({ ...prev, profilePicture: pictureProblem(file) }));
  };

  const removePicture = () => {
    setPicture(null);
    setErrors((prev) => ({ ...prev, profilePicture: undefined }));
    if (refs.profilePicture.current) {
      refs.profilePicture.current.value = '';
      refs.profilePicture.current.focus();
    }
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (submitting || success) return;
    setAttempted(true);
    const found = validateRegister({ ...values, profilePicture: picture });
    setErrors(found);
    if (hasErrors(found)) {
      const first = (['name', 'email', 'password', 'profilePicture'] as const).find(
        (k) => found[k],
      );
      if (first) refs[first].current?.focus();
      return;
    }

    const body = new FormData();
    body.append('name', values.name.trim());
    body.append('email', values.email.trim());
    body.append('password', values.password);
    if (picture) body.append('profilePicture', picture);

    setSubmitting(true);
    setFailure(null);
    try {
      const answer = await apiFetch<RegisterAnswer>('/api/register', { method: 'POST', body });
      if (answer?.userId !== undefined && answer.userId !== null) {
        setUserId(String(answer.userId));
      }
      setSuccess(REGISTER_OK);
      window.setTimeout(() => navigate('/trips'), SUCCESS_PAUSE_MS);
    } catch (err) {
      setFailure(
        err instanceof ApiError && err.serverMessage ? err.serverMessage : REGISTER_FAILED,
      );
      setSubmitting(false);
    }
  };

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
      <form className="auth-form" noValidate onSubmit={onSubmit}>
        {failure ? (
          <div className="form-alert" role="alert">
            {failure}
          </div>
        ) : null}
        {success ? (
          <div className="form-success" role="status">
            {success}
          </div>
        ) : null}
        <Field
          ref={refs.name}
          label="Name"
          name="name"
          autoComplete="name"
          required
          maxLength={AuthLimits.nameMax}
          value={values.name}
          error={errors.name}
          onChange={(e) => update('name', e.target.value)}
        />
        <Field
          ref={refs.email}
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          maxLength={AuthLimits.emailMax}
          value={values.email}
          error={errors.email}
          onChange={(e) => update('email', e.target.value)}
        />
        <Field
          ref={refs.password}
          label="Password"
          type="password"
          name="password"
          autoComplete="new-password"
          required
          minLength={AuthLimits.passwordMin}
          maxLength={AuthLimits.passwordMax}
          hint={PASSWORD_HINT}
          value={values.password}
          error={errors.password}
          onChange={(e) => update('password', e.target.value)}
        />

        <PictureField
          optional
          file={picture}
          error={errors.profilePicture}
          inputRef={refs.profilePicture}
          onChange={onPictureChange}
          onRemove={removePicture}
        />

        <button
          type="submit"
          className="btn btn-primary btn-block"
          disabled={submitting || success !== null}
        >
          {submitting && !success ? 'Signing up...' : 'Sign Up'}
        </button>
      </form>
    </AuthLayout>
  );
}
