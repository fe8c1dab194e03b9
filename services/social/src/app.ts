import type { FastifyInstance } from 'fastify';
import {
  consumersJoined,
  createHttpApp,
  type BackgroundConsumer,
  type Logger,
  type OutboxRelay,
} from '@wayfarer/service-kit';
import type { Pool } from '@wayfarer/service-kit/pg';
import { exportRoutes } from './routes/export';
import { feedRoutes } from './routes/feed';
import { friendRoutes } from './routes/friends';
import { searchRoutes } from './routes/search';
import { statsRoutes } from './routes/stats';
import type { FeedPages } from './store/feed';
import type { FriendsPages } from './store/friends-pages';
import type { SocialStore } from './store/social';
import type { StatsPages } from './store/stats';
import type { SocialContext } from './routes/context';

export interface SocialDeps {
  logger: Logger;
  pool: Pool;
  store: SocialStore;
  /** `GET /api/friends`'s pages (cached, the store's query underneath). */
  friendsPages: FriendsPages;
  /** `GET /api/feed`'s pages (cached, the feed query underneath). */
  feedPages: FeedPages;
  /** `GET /api/stats`'s answers (issue 22; cached, computed from the stored trips underneath). */
  statsPages: StatsPages;
  /** Checks the gateway's identity proof (service-kit `loadIdentityProofSecret`). */
  identityProofSecret: Buffer;
  /** Kicked after a commit that enqueued events; optional (the relay also polls). */
  relay?: Pick<OutboxRelay, 'kick'>;
  /**
   * The users and trips consumers: `/readyz` fails until both have joined their groups (a
   * friend's new trip is read from what they write); absent in tests of the app alone.
   */
  consumers?: readonly Pick<BackgroundConsumer, 'groupId' | 'joined'>[];
}

/** The social service's HTTP app (not listening): what main.ts runs and tests inject into. */
export function buildApp(deps: SocialDeps): FastifyInstance {
  const app = createHttpApp({
    name: 'social',
    logger: deps.logger,
    identityProofSecret: deps.identityProofSecret,
    // no route reads a body
    bodyLimit: 1024,
    readiness: {
      postgres: () => deps.pool.query('SELECT 1'),
      ...(deps.consumers ? { consumers: consumersJoined(deps.consumers) } : {}),
    },
    // ids longer than the router's default 100 get our 404 instead of a 414
    fastify: { routerOptions: { maxParamLength: 200 } },
  });
  const ctx: SocialContext = {
    app,
    store: deps.store,
    friendsPages: deps.friendsPages,
    feedPages: deps.feedPages,
    statsPages: deps.statsPages,
    relay: deps.relay,
  };
  friendRoutes(ctx);
  feedRoutes(ctx);
  searchRoutes(ctx);
  statsRoutes(ctx);
  exportRoutes(ctx);
  return app;
}
