import type { FastifyInstance } from 'fastify';
import { createHttpApp, installErrorMap, type Logger } from '@wayfarer/service-kit';
import type { PlaceIndex } from './domain/place-index';
import { httpErrorOf } from './routes/errors';
import { placesRoutes } from './routes/places';

export interface PlacesDeps {
  logger: Logger;
  /**
   * The city index, or a promise of it while it is being built: until it resolves, `/readyz`
   * answers 503 and searches 503 with a retry hint.
   */
  index: PlaceIndex | Promise<PlaceIndex>;
  /** Checks the gateway's identity proof (service-kit `loadIdentityProofSecret`). */
  identityProofSecret: Buffer;
}

/** The places service's HTTP app (not listening): what main.ts runs and tests inject into. */
export function buildApp(deps: PlacesDeps): FastifyInstance {
  let index: PlaceIndex | null = null;
  let failure: Error | null = null;
  if (deps.index instanceof Promise) {
    deps.index.then(
      (built) => {
        index = built;
      },
      (err: unknown) => {
        failure = err instanceof Error ? err : new Error(String(err));
      },
    );
  } else {
    index = deps.index;
  }

  const app = createHttpApp({
    name: 'places',
    logger: deps.logger,
    identityProofSecret: deps.identityProofSecret,
    // GET only: no request bodies worth accepting.
    bodyLimit: 1024,
    readiness: {
      index: async () => {
        if (index) return index.size;
        throw failure ?? new Error('the city index is still being built');
      },
    },
  });
  installErrorMap(app, httpErrorOf);
  placesRoutes({ app, index: () => index });
  return app;
}
