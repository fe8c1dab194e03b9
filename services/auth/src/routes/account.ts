import argon2 from 'argon2';
import type { FastifyRequest } from 'fastify';
import {
  AccountMessages,
  ChangePasswordBody,
  DeleteAccountBody,
  PROFILE_TEXT_FIELDS,
  UpdateProfileFields,
  type AccountMessageResponse,
  type UserDetailsResponse,
} from '@wayfarer/contracts';
import { HttpError, identityOf, notFound, parse, type Identity } from '@wayfarer/service-kit';
import { withTransaction } from '@wayfarer/service-kit/pg';
import { avatarPrefix, avatarUrl, newAvatarKey } from '../domain/avatar';
import { revocationExpiresAt } from '../domain/session';
import { enqueueUserDeleted, enqueueUserUpdated } from '../events/outbox';
import { recordRevocations, type RevokedSession } from '../store/sessions';
import type { AuthContext } from './context';
import { clearSessionCookie } from './cookies';
import { readPictureForm } from './form';
import { passwordChecker } from './password-check';
import { processPicture } from './register';

export const PROFILE_NOT_MULTIPART_MESSAGE =
  'Profile changes must be sent as multipart/form-data (name and/or profilePicture).';

function requireIdentity(request: FastifyRequest): Identity {
  const identity = identityOf(request);
  if (!identity) throw new HttpError(401, 'You need to be signed in.');
  return identity;
}

/** The session making the request, as a revocation (null when it has no id or has expired). */
function currentSession(identity: Identity): RevokedSession | null {
  const exp = revocationExpiresAt(identity.sessionExpires);
  return identity.sessionId && exp !== null ? { jti: identity.sessionId, exp } : null;
}

/**
 * Your account (issue 19): change the name and picture, change the password (every other
 * session revoked), close the account (every session revoked, `user.deleted` for the erasure).
 */
export function accountRoutes(ctx: AuthContext): void {
  const { app, users, avatars, pool, spool, sessions, revocations, throttle, fences } = ctx;
  const checkPassword = passwordChecker(ctx);

  /** Revocations committed in PostgreSQL, copied to Redis now (the sync does it otherwise). */
  const announce = async (request: FastifyRequest, revoked: readonly RevokedSession[]) => {
    const err = await revocations.publishRecorded(revoked);
    if (err) request.log.warn({ err }, 'revocations not yet in Redis; the sync writes them');
  };

  app.patch('/api/userDetails', (request, reply) =>
    spool.withRequestDir(async (spoolDir) => {
      const userId = requireIdentity(request).userId;
      const form = await readPictureForm(request, reply, spoolDir, {
        textFields: PROFILE_TEXT_FIELDS,
        notMultipart: PROFILE_NOT_MULTIPART_MESSAGE,
      });
      const input = parse(UpdateProfileFields, form.fields);
      if (input.name === undefined && !form.picture) {
        throw new HttpError(400, AccountMessages.nothingToChange);
      }
      // decoded, checked and re-encoded before anything is stored (as at registration)
      const avatar = form.picture ? await processPicture(form.picture) : null;
      const avatarKey = avatar ? newAvatarKey(userId, avatar.type) : undefined;
      if (avatar && avatarKey)
        await avatars.putFile(avatarKey, avatar.path, avatar.type.contentType);
      const dropNew = async () => {
        if (!avatarKey) return;
        await avatars.remove(avatarKey).catch((err: unknown) => {
          request.log.error({ err, avatarKey }, 'could not remove an unused avatar');
        });
      };

      let changed: Awaited<ReturnType<typeof users.update>>;
      try {
        changed = await withTransaction(pool, async (client) => {
          const result = await users.update(client, userId, { name: input.name, avatarKey });
          if (result) {
            await enqueueUserUpdated(client, {
              id: userId,
              name: result.after.name,
              profilePicture: avatarUrl(result.after.avatarKey),
            });
          }
          return result;
        });
      } catch (err) {
        await dropNew();
        throw err;
      }
      if (!changed) {
        await dropNew();
        throw notFound('User not found.');
      }
      ctx.relay?.kick();
      // the picture it replaced (the row lock orders concurrent changes: each removes its own)
      const old = changed.before.avatarKey;
      if (avatarKey && old && old !== avatarKey) {
        await avatars.remove(old).catch((err: unknown) => {
          request.log.error({ err, avatarKey: old }, 'could not remove the replaced avatar');
        });
      }
      const body: UserDetailsResponse = {
        username: changed.after.name,
        profilePicture: avatarUrl(changed.after.avatarKey),
      };
      return body;
    }),
  );

  app.post('/api/password', async (request, reply) => {
    const identity = requireIdentity(request);
    const input = parse(ChangePasswordBody, request.body);
    const user = await users.findById(identity.userId);
    if (!user) throw notFound('User not found.');
    const check = await checkPassword(
      request,
      reply,
      user.email,
      user.passwordHash,
      input.currentPassword,
    );
    if (check === 'throttled') return reply;
    if (check === 'wrong') {
      throw new HttpError(400, AccountMessages.wrongPassword, 'invalid_password');
    }
    const passwordHash = await argon2.hash(input.newPassword, { type: argon2.argon2id });
    // the new hash and the other sessions' revocations commit together
    const revoked = await withTransaction(pool, async (client) => {
      await users.setPasswordHash(client, user.id, passwordHash);
      return sessions.revokeAllOf(client, user.id, identity.sessionId);
    });
    await announce(request, revoked);
    const body: AccountMessageResponse = { message: AccountMessages.passwordChanged };
    return body;
  });

  app.delete('/api/account', async (request, reply) => {
    const identity = requireIdentity(request);
    const input = parse(DeleteAccountBody, request.body);
    const user = await users.findById(identity.userId);
    if (!user) {
      clearSessionCookie(reply, ctx.cookieSecure);
      throw notFound('User not found.');
    }
    const check = await checkPassword(
      request,
      reply,
      user.email,
      user.passwordHash,
      input.password,
    );
    if (check === 'throttled') return reply;
    if (check === 'wrong') {
      throw new HttpError(400, AccountMessages.wrongPassword, 'invalid_password');
    }
    const current = currentSession(identity);
    // One transaction: every session revoked (the current one too, listed or not), the row
    // gone, and user.deleted recorded for every other service's erasure (outbox: delivered
    // whenever Kafka is there, never lost). The closed-account fence is written before the
    // commit: from the answer on, share links, photos, the picture, search and friends' reads
    // refuse the account whatever Kafka does. No fence (Redis down), no closing: a 503.
    let fenced = false;
    let revoked: RevokedSession[];
    try {
      revoked = await withTransaction(pool, async (client) => {
        const all = await sessions.revokeAllOf(client, user.id);
        if (current) await recordRevocations(client, [current]);
        if (await users.delete(client, user.id)) await enqueueUserDeleted(client, user.id);
        await fences.closeAccount(user.id);
        fenced = true;
        return current && !all.some((s) => s.jti === current.jti) ? [...all, current] : all;
      });
    } catch (err) {
      // not committed after all (the row is still there): the account is open again
      if (fenced && (await users.findById(user.id).catch(() => null))) {
        await fences.liftClosedAccount(user.id).catch(() => undefined);
      }
      throw err;
    }
    clearSessionCookie(reply, ctx.cookieSecure);
    ctx.relay?.kick();
    await announce(request, revoked);
    // At once when MinIO and Redis answer; the avatars are also removed by auth's erasure
    // consumer (retried until done), and the counters expire with their window anyway.
    await avatars.removePrefix(avatarPrefix(user.id)).catch((err: unknown) => {
      request.log.warn({ err }, 'avatars not removed yet; the erasure consumer will');
    });
    await throttle.forgetAccount(user.email).catch((err: unknown) => {
      request.log.warn({ err }, 'could not remove the closed account’s login counters');
    });
    const body: AccountMessageResponse = { message: AccountMessages.accountDeleted };
    return body;
  });
}
