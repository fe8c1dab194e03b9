import { HttpError, notFound, requireUserId } from '@wayfarer/service-kit';
import { sendObject } from '@wayfarer/storage/serve';
import { parseAvatarKey } from '../domain/avatar';
import type { AuthContext } from './context';

const AVATAR_NOT_FOUND = 'Picture not found.';

export function avatarRoutes(ctx: AuthContext): void {
  const { app, avatars, fences } = ctx;

  app.get<{ Params: { userId: string; file: string } }>(
    '/api/avatars/:userId/:file',
    async (request, reply) => {
      requireUserId(request);
      const parsed = parseAvatarKey(request.params.userId, request.params.file);
      if (!parsed) throw new HttpError(400, 'Invalid picture address.');
      // a closed account's picture is gone at once, even before its objects are removed
      if (await fences.isClosed(request.params.userId)) throw notFound(AVATAR_NOT_FOUND);
      return sendObject(reply, avatars, parsed.key, {
        contentType: parsed.type.contentType,
        notFoundMessage: AVATAR_NOT_FOUND,
      });
    },
  );
}
