import { HttpError, notFound, requireUserId } from '@wayfarer/service-kit';
import { parseAvatarKey } from '../domain/avatar';
import type { AuthContext } from '../app';

export function avatarRoutes(ctx: AuthContext): void {
  const { app, avatars } = ctx;

  app.get<{ Params: { userId: string; file: string } }>(
    '/api/avatars/:userId/:file',
    async (request, reply) => {
      requireUserId(request);
      const parsed = parseAvatarKey(request.params.userId, request.params.file);
      if (!parsed) throw new HttpError(400, 'Invalid picture address.');
      const info = await avatars.stat(parsed.key);
      const stream = info && (await avatars.get(parsed.key));
      if (!info || !stream) throw notFound('Picture not found.');
      return reply
        .header('content-type', parsed.type.contentType)
        .header('content-length', info.size)
        .header('cache-control', 'private, max-age=86400')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'")
        .send(stream);
    },
  );
}
