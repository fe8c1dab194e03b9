import type { FastifyInstance } from 'fastify';
import type { SearchDeps } from '../usecases/search-places';

/** What the route modules share: the app they add routes to and what the use case needs. */
export interface PlacesContext extends SearchDeps {
  app: FastifyInstance;
}
