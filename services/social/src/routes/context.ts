import type { FastifyInstance } from 'fastify';
import type { OutboxRelay } from '@wayfarer/service-kit';
import type { FeedPages } from '../store/feed';
import type { FriendsPages } from '../store/friends-pages';
import type { SocialStore } from '../store/social';
import type { StatsPages } from '../store/stats';

/** What the route modules share. */
export interface SocialContext {
  app: FastifyInstance;
  store: SocialStore;
  friendsPages: FriendsPages;
  feedPages: FeedPages;
  /** `GET /api/stats`'s answers (issue 22), cached per user. */
  statsPages: StatsPages;
  relay?: Pick<OutboxRelay, 'kick'>;
}
