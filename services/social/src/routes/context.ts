import type { FastifyInstance } from 'fastify';
import type { OutboxRelay } from '@wayfarer/service-kit';
import type { FeedPages } from '../store/feed';
import type { FriendsPages } from '../store/friends-pages';
import type { SocialStore } from '../store/social';

/** What the route modules share. */
export interface SocialContext {
  app: FastifyInstance;
  store: SocialStore;
  friendsPages: FriendsPages;
  feedPages: FeedPages;
  relay?: Pick<OutboxRelay, 'kick'>;
}
