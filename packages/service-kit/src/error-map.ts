import type { FastifyInstance, FastifyReply, RouteOptions } from 'fastify';

/**
 * A service's one map from what its use cases refuse (its own errors) to HTTP: an `HttpError`
 * (service-kit's error handler writes the `{error, message}`), or the error as it was for
 * anything it does not know. A refusal's headers (`Retry-After`) go on `reply`.
 */
export type HttpErrorOf = (err: unknown, reply: FastifyReply) => unknown;

/**
 * Every route added to `app` after this answers an error thrown by its handler (synchronously
 * or not) as `httpErrorOf` says: the domain and the use cases refuse in their own words, and
 * the service's `routes/errors.ts` is the one place saying what each is in HTTP.
 */
export function installErrorMap(app: FastifyInstance, httpErrorOf: HttpErrorOf): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const handler = route.handler;
    route.handler = async function (this: FastifyInstance, request, reply) {
      try {
        return await handler.call(this, request, reply);
      } catch (err) {
        throw httpErrorOf(err, reply);
      }
    };
  });
}
