import { RegisterFields, type RegisterResponse } from '@wayfarer/contracts';
import { HttpError, parse } from '@wayfarer/service-kit';
import { REGISTER_TEXT_FIELDS, REGISTERED_MESSAGE } from '../domain/registration';
import { registerUser } from '../usecases/register';
import type { AuthContext } from './context';
import { setSessionCookie } from './cookies';
import { readRegistrationForm } from './form';

const REQUIRED_MESSAGES = {
  name: 'Name is required.',
  email: 'Email is required.',
  password: 'Password is required.',
} as const;

export function registerRoute(ctx: AuthContext): void {
  const { app, spool } = ctx;

  app.post('/api/register', (request, reply) =>
    spool.withRequestDir(async (spoolDir) => {
      const form = await readRegistrationForm(request, reply, spoolDir);
      const missing = REGISTER_TEXT_FIELDS.filter((f) => form.fields[f] === undefined);
      if (missing.length > 0)
        throw new HttpError(400, missing.map((f) => REQUIRED_MESSAGES[f]).join(' '));
      const input = parse(RegisterFields, form.fields);

      const { userId, token } = await registerUser(
        ctx,
        { ...input, picture: form.picture },
        request.log,
      );
      setSessionCookie(reply, token, ctx.cookieSecure);
      const body: RegisterResponse = { userId, message: REGISTERED_MESSAGE };
      return reply.code(201).send(body);
    }),
  );
}
