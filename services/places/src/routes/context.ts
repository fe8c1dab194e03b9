import type { FastifyInstance } from 'fastify';
import type { PlaceIndex } from '../domain/place-index';

/** What the route modules share. */
export interface PlacesContext {
  app: FastifyInstance;
  /** The index once built, else null. */
  index: () => PlaceIndex | null;
}
