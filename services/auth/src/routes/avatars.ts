import { requireUserId } from '@wayfarer/service-kit';
import { sendObject } from '@wayfarer/storage/serve';
import { AVATAR_NOT_FOUND_MESSAGE } from '../domain/messages';
import { openAvatar } from '../usecases/open-avatar';
import type { AuthContext } from './context';

export function avatarRoutes(ctx: AuthContext): void {
  ctx.app.get<{ Params: { userId: string; file: string } }>(
    '/api/avatars/:userId/:file',
    async (request, reply) => {
      requireUserId(request);
      const avatar = await openAvatar(ctx, request.params.userId, request.params.file);
      return sendObject(reply, ctx.avatars, avatar.key, {
        contentType: avatar.contentType,
        notFoundMessage: AVATAR_NOT_FOUND_MESSAGE,
      });
    },
  );
}
