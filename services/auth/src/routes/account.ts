import type { FastifyRequest } from 'fastify';
import {
  AccountMessages,
  ChangePasswordBody,
  DeleteAccountBody,
  PROFILE_TEXT_FIELDS,
  UpdateProfileFields,
  type AccountMessageResponse,
} from '@wayfarer/contracts';
import { clientIpOf, HttpError, identityOf, parse, type Identity } from '@wayfarer/service-kit';
import { UserNotFoundError } from '../domain/errors';
import { PROFILE_NOT_MULTIPART_MESSAGE } from '../domain/messages';
import { changePassword } from '../usecases/change-password';
import { closeAccount } from '../usecases/close-account';
import { updateUserDetails } from '../usecases/update-details';
import type { AuthContext } from './context';
import { clearSessionCookie } from './cookies';
import { readPictureForm } from './form';

function requireIdentity(request: FastifyRequest): Identity {
  const identity = identityOf(request);
  if (!identity) throw new HttpError(401, 'You need to be signed in.');
  return identity;
}

/**
 * Your account: change the name and picture, change the password (every other session
 * revoked), close the account (every session revoked, `user.deleted` for the erasure).
 */
export function accountRoutes(ctx: AuthContext): void {
  const { app, spool } = ctx;

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
      return updateUserDetails(
        ctx,
        userId,
        { name: input.name, picture: form.picture },
        request.log,
      );
    }),
  );

  app.post('/api/password', async (request) => {
    const identity = requireIdentity(request);
    const input = parse(ChangePasswordBody, request.body);
    await changePassword(ctx, identity, { ...input, clientIp: clientIpOf(request) }, request.log);
    const body: AccountMessageResponse = { message: AccountMessages.passwordChanged };
    return body;
  });

  app.delete('/api/account', async (request, reply) => {
    const identity = requireIdentity(request);
    const input = parse(DeleteAccountBody, request.body);
    try {
      await closeAccount(
        ctx,
        identity,
        { password: input.password, clientIp: clientIpOf(request) },
        request.log,
      );
    } catch (err) {
      // an account already gone: this browser's cookie names nobody
      if (err instanceof UserNotFoundError) clearSessionCookie(reply, ctx.cookieSecure);
      throw err;
    }
    clearSessionCookie(reply, ctx.cookieSecure);
    const body: AccountMessageResponse = { message: AccountMessages.accountDeleted };
    return body;
  });
}
