import type { FastifyInstance, RouteOptions } from 'fastify';
import { HttpError } from '@wayfarer/service-kit';
import { JournalMessages } from '../domain/access';
import { JournalNotFoundError, OwnerOnlyError } from '../domain/errors';

/** What a journal error is in HTTP (anything else as it is). */
export function httpErrorOf(err: unknown): unknown {
  if (err instanceof JournalNotFoundError) return new HttpError(404, JournalMessages.notFound);
  if (err instanceof OwnerOnlyError) return new HttpError(403, JournalMessages.ownerOnly);
  return err;
}

/**
 * Every route added to `app` after this answers a journal error thrown by its handler as
 * `httpErrorOf` says: the use cases throw what they refuse in their own words, and this is the
 * one place saying what each is in HTTP.
 */
export function installJournalErrors(app: FastifyInstance): void {
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
