/**
 * trips' consumers: each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group.
 */
export const CONSUMERS = {
  /** auth's `auth.user.v1`: the erasure of closed accounts (users.ts) */
  erasure: 'trips-erasure',
  /** social's `social.friendship.v1` into the friendships read model (friendships.ts) */
  friendships: 'trips-friendships',
  /** journal's `journal.entry.v1`: destinations' journal texts for share links (journal.ts) */
  journalStories: 'trips-journal-stories',
} as const;

/** The names as the package exports them (e2e and benches drop these groups). */
export const ERASURE_CONSUMER = CONSUMERS.erasure;
export const FRIENDSHIP_CONSUMER = CONSUMERS.friendships;
export const JOURNAL_STORIES_CONSUMER = CONSUMERS.journalStories;
