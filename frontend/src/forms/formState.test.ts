import { describe, expect, it } from 'vitest';
import { loginForm, MESSAGES, registerForm, type RegisterValues } from '../auth/validation';
import {
  firstWithError,
  formReducer,
  initialForm,
  issuesByField,
  type FormAction,
  type FormRules,
  type FormState,
} from './formState';

function run<V>(rules: FormRules<V>, from: FormState<V>, actions: FormAction<V>[]) {
  return actions.reduce(formReducer(rules), from);
}

const login = initialForm({ email: '', password: '' });
const typedLogin: FormAction<typeof login.values>[] = [
  { type: 'set', field: 'email', value: 'ada@example.com' },
  { type: 'set', field: 'password', value: 'a long password' },
];

describe('a form', () => {
  it('checks on Save, then again on each change, and sends once at a time', () => {
    const refused = run(loginForm, login, [{ type: 'submit' }]);
    expect(refused).toMatchObject({ attempted: true, saving: false });
    expect(refused.errors).toEqual({
      email: MESSAGES.emailRequired,
      password: MESSAGES.passwordRequired,
    });
    expect(firstWithError(refused.errors, ['email', 'password'])).toBe('email');
    const typed = run(loginForm, refused, typedLogin);
    expect(typed.errors).toEqual({});
    const sending = run(loginForm, typed, [{ type: 'submit' }]);
    expect(sending.saving).toBe(true);
    expect(run(loginForm, sending, [{ type: 'submit' }])).toBe(sending);
  });

  it('login: stays editable while sent, and its failure stays said until the next request', () => {
    const sending = run(loginForm, login, [...typedLogin, { type: 'submit' }]);
    const typing = run(loginForm, sending, [{ type: 'set', field: 'password', value: 'other' }]);
    expect(typing).toMatchObject({ saving: true, values: { password: 'other' } });
    const failed = run(loginForm, sending, [{ type: 'failed', message: 'Invalid login details.' }]);
    expect(failed).toMatchObject({ saving: false, failure: 'Invalid login details.' });
    const emptied = run(loginForm, failed, [
      { type: 'set', field: 'password', value: '' },
      { type: 'submit' },
    ]);
    expect(emptied.failure).toBe('Invalid login details.');
    expect(emptied.errors.password).toBe(MESSAGES.passwordRequired);
    const again = run(loginForm, failed, [{ type: 'submit' }]);
    expect(again).toMatchObject({ saving: true, failure: null });
  });

  it('register: a success ends the form with its note, what was typed kept', () => {
    const start = initialForm<RegisterValues>({
      name: '',
      email: '',
      password: '',
      profilePicture: null,
    });
    const values: RegisterValues = {
      name: 'Ada',
      email: 'ada@example.com',
      password: 'a long password',
      profilePicture: null,
    };
    const sending = run(registerForm, start, [
      { type: 'set', field: 'name', value: values.name },
      { type: 'set', field: 'email', value: values.email },
      { type: 'set', field: 'password', value: values.password },
      { type: 'submit' },
    ]);
    expect(sending.saving).toBe(true);
    const done = run(registerForm, sending, [
      { type: 'saved', notice: 'Registration successful!', values },
    ]);
    expect(done).toMatchObject({ saving: false, notice: 'Registration successful!', values });
    expect(run(registerForm, done, [{ type: 'submit' }])).toBe(done);
    expect(run(registerForm, done, [{ type: 'set', field: 'name', value: 'A' }]).notice).toBe(
      'Registration successful!',
    );
  });

  it('says the first message of each field of a failed parse', () => {
    expect(
      issuesByField([
        { path: ['a'], message: 'first' },
        { path: ['a'], message: 'second' },
        { path: ['b', 0], message: 'b' },
      ]),
    ).toEqual({ a: 'first', b: 'b' });
  });
});
