import { HttpError, requireUserId } from '@wayfarer/service-kit';
import { sendObject } from '@wayfarer/storage/serve';
import { parseAvatarKey } from '../domain/avatar';
import type { AuthContext } from './context';

export function avatarRoutes(ctx: AuthContext): void {
  const { app, avatars } = ctx;

  app.get<{ Params: { userId: string; file: string } }>(
    '/api/avatars/:userId/:file',
    async (request, reply) => {
      requireUserId(request);
      const parsed = parseAvatarKey(request.params.userId, request.params.file);
      if (!parsed) throw new HttpError(400, 'Invalid picture address.');
      return sendObject(reply, avatars, parsed.key, {
        contentType: parsed.type.contentType,
        notFoundMessage: 'Picture not found.',
      });
    },
  );
}
