import { randomUUID } from 'node:crypto';
import argon2 from 'argon2';
import { RegisterFields, type RegisterResponse } from '@wayfarer/contracts';
import { HttpError, parse } from '@wayfarer/service-kit';
import { withTransaction } from '@wayfarer/service-kit/pg';
import {
  AVATAR_IMAGE,
  ImageRejectedError,
  processImage,
  type ImageFile,
} from '@wayfarer/storage/pipeline';
import type { SpooledImage } from '@wayfarer/storage/upload';
import { avatarUrl, newAvatarKey } from '../domain/avatar';
import {
  DUPLICATE_EMAIL_MESSAGE,
  NOT_AN_IMAGE_MESSAGE,
  REGISTER_TEXT_FIELDS,
  REGISTERED_MESSAGE,
} from '../domain/registration';
import { enqueueUserRegistered } from '../events/outbox';
import { DuplicateEmailError } from '../store/users';
import type { AuthContext } from './context';
import { setSessionCookie } from './cookies';
import { readRegistrationForm } from './form';

const REQUIRED_MESSAGES = {
  name: 'Name is required.',
  email: 'Email is required.',
  password: 'Password is required.',
} as const;

export function registerRoute(ctx: AuthContext): void {
  const { app, users, avatars, pool, spool } = ctx;

  app.post('/api/register', (request, reply) =>
    spool.withRequestDir(async (spoolDir) => {
      const form = await readRegistrationForm(request, reply, spoolDir);

      const missing = REGISTER_TEXT_FIELDS.filter((f) => form.fields[f] === undefined);
      if (missing.length > 0)
        throw new HttpError(400, missing.map((f) => REQUIRED_MESSAGES[f]).join(' '));
      const input = parse(RegisterFields, form.fields);

      // decoded, checked and re-encoded before anything is stored
      const avatar = form.picture ? await processPicture(form.picture) : null;

      // Cheap early answer; the unique index is what really guarantees it (see below).
      if (await users.emailTaken(input.email)) throw new HttpError(409, DUPLICATE_EMAIL_MESSAGE);

      const userId = randomUUID();
      const passwordHash = await argon2.hash(input.password, { type: argon2.argon2id });
      const avatarKey = avatar ? newAvatarKey(userId, avatar.type) : null;
      const session = ctx.issueSession(userId);
      if (avatar && avatarKey)
        await avatars.putFile(avatarKey, avatar.path, avatar.type.contentType);

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
          await ctx.sessions.record(
            { jti: session.claims.jti, userId, exp: session.claims.exp },
            client,
          );
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

      setSessionCookie(reply, session.token, ctx.cookieSecure);
      const body: RegisterResponse = { userId, message: REGISTERED_MESSAGE };
      return reply.code(201).send(body);
    }),
  );
}

/** The profile picture through storage's image pipeline: one upright image, no metadata. */
export async function processPicture(picture: SpooledImage): Promise<ImageFile> {
  try {
    const { variants } = await processImage(picture.path, { avatar: AVATAR_IMAGE }, picture.path);
    return variants.avatar;
  } catch (err) {
    if (err instanceof ImageRejectedError) throw new HttpError(400, NOT_AN_IMAGE_MESSAGE);
    throw err;
  }
}
