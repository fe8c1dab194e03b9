import type { FastifyInstance, RouteOptions } from 'fastify';
import { HttpError } from '@wayfarer/service-kit';
import { ChatRefusedError, type RefusalKind } from '../domain/errors';

const STATUS: Record<RefusalKind, number> = { invalid: 400, forbidden: 403, not_found: 404 };

/** What a chat refusal is in HTTP (anything else as it is). */
export function httpErrorOf(err: unknown): unknown {
  return err instanceof ChatRefusedError ? new HttpError(STATUS[err.kind], err.message) : err;
}

/**
 * Every route added to `app` after this answers a chat refusal thrown by its handler as
 * `httpErrorOf` says: the use cases refuse in their own words (the socket events ack the same
 * message), and this is the one place saying what each is in HTTP.
 */
export function installChatErrors(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const handler = route.handler;
    route.handler = function (this: FastifyInstance, request, reply) {
      return Promise.resolve()
        .then(() => handler.call(this, request, reply))
        .catch((err: unknown) => {
          throw httpErrorOf(err);
        });
    };
  });
}
