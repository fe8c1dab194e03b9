import { randomUUID } from 'node:crypto';
import argon2 from 'argon2';
import { RegisterFields, type RegisterResponse } from '@wayfarer/contracts';
import { HttpError, parse } from '@wayfarer/service-kit';
import { withTransaction } from '@wayfarer/service-kit/pg';
import { sniffImage } from '@wayfarer/storage/image';
import { avatarUrl, newAvatarKey } from '../domain/avatar';
import {
  DUPLICATE_EMAIL_MESSAGE,
  NOT_AN_IMAGE_MESSAGE,
  REGISTER_TEXT_FIELDS,
  REGISTERED_MESSAGE,
} from '../domain/registration';
import { enqueueUserRegistered } from '../events/outbox';
import { DuplicateEmailError } from '../store/users';
import type { AuthContext } from '../app';
import { setSessionCookie } from './cookies';
import { readRegistrationForm } from './form';

const REQUIRED_MESSAGES = {
  name: 'Name is required.',
  email: 'Email is required.',
  password: 'Password is required.',
} as const;

export function registerRoute(ctx: AuthContext): void {
  const { app, users, avatars, pool } = ctx;

  app.post('/api/register', async (request, reply) => {
    let form;
    try {
      form = await readRegistrationForm(request);
    } catch (err) {
      // The rest of the body may be unread: do not reuse this connection.
      reply.header('connection', 'close');
      throw err;
    }

    const missing = REGISTER_TEXT_FIELDS.filter((f) => form.fields[f] === undefined);
    if (missing.length > 0)
      throw new HttpError(400, missing.map((f) => REQUIRED_MESSAGES[f]).join(' '));
    const input = parse(RegisterFields, form.fields);

    const image = form.picture ? sniffImage(form.picture.data) : null;
    if (form.picture && !image) throw new HttpError(400, NOT_AN_IMAGE_MESSAGE);

    // Cheap early answer; the unique index is what really guarantees it (see below).
    if (await users.emailTaken(input.email)) throw new HttpError(409, DUPLICATE_EMAIL_MESSAGE);

    const userId = randomUUID();
    const passwordHash = await argon2.hash(input.password, { type: argon2.argon2id });
    const avatarKey = form.picture && image ? newAvatarKey(userId, image) : null;
    if (form.picture && image && avatarKey) {
      await avatars.put(avatarKey, form.picture.data, image.contentType);
    }

    try {
      await withTransaction(pool, async (client) => {
        await users.insert(client, {
          id: userId,
          name: input.name,
          email: input.email,
          passwordHash,
          avatarKey,
        });
        await enqueueUserRegistered(client, {
          id: userId,
          name: input.name,
          email: input.email,
          profilePicture: avatarUrl(avatarKey),
        });
      });
    } catch (err) {
      if (avatarKey) {
        await avatars.remove(avatarKey).catch((removeErr: unknown) => {
          request.log.error({ err: removeErr, avatarKey }, 'could not remove orphaned avatar');
        });
      }
      if (err instanceof DuplicateEmailError) throw new HttpError(409, DUPLICATE_EMAIL_MESSAGE);
      throw err;
    }
    ctx.relay?.kick();

    const session = ctx.issueSession(userId);
    setSessionCookie(reply, session.token, ctx.cookieSecure);
    const body: RegisterResponse = { userId, message: REGISTERED_MESSAGE };
    return reply.code(201).send(body);
  });
}
