import type { Db } from 'mongodb';
import {
  friendshipId,
  FriendshipCreated,
  FriendshipRemoved,
  readEvent,
  Topics,
  type EventEnvelope,
} from '@wayfarer/contracts';
import type { MongoProjectionSpec } from './projections';

/**
 * What ends access before the projection hears of it (service-kit `AccessFences`): whether a
 * pair the projection, as of its latest event of the pair, says are friends must be refused.
 */
export interface FriendshipFences {
  fencedPairs<P extends { a: string; b: string; asOf: string }>(
    pairs: readonly P[],
  ): Promise<Set<P>>;
}

interface FriendshipDoc {
  _id: string;
  userIds: [string, string];
  /** occurredAt of the last event applied, so an older redelivered event cannot undo a newer one. */
  asOf: string;
  active: boolean;
}

/**
 * A read model of who is friends with whom, built from social's friendship events, for services
 * that must let friends read (trips' photos, journal, chat). Its `apply` is idempotent and
 * order-safe. Its answers are the events' *and the fences'*: a pair it holds as friends is
 * refused when social ended the friendship after the pair's latest event here, or either
 * account is closed (`fences`, written before social or auth answered), so access ends when
 * the change is answered, not when its event arrives. A fence that cannot be read throws (a
 * 503): friends-only data fails closed.
 */
export class FriendshipProjection {
  private readonly collection;

  constructor(
    db: Db,
    private readonly fences: FriendshipFences,
    name = 'friendships',
  ) {
    this.collection = db.collection<FriendshipDoc>(name);
  }

  async init(): Promise<void> {
    await this.collection.createIndex({ userIds: 1 });
  }

  /** Applies a social event; returns false for events it does not care about. */
  async apply(event: EventEnvelope): Promise<boolean> {
    const created = readEvent(FriendshipCreated, event);
    const removed = created ? null : readEvent(FriendshipRemoved, event);
    const pair = created?.payload.userIds ?? removed?.payload.userIds;
    if (!pair) return false;
    const _id = friendshipId(pair[0], pair[1]);
    if (removed?.payload.erased) {
      // one of them closed the account: no record of the pair stays (an older event of the
      // pair comes before this one on its partition; a redelivered one is skipped by its marker)
      await this.collection.deleteOne({ _id });
      return true;
    }
    const userIds = [...pair].sort() as [string, string];
    // only move forward in time: a redelivered older event changes nothing
    await this.collection.updateOne(
      { _id, $or: [{ asOf: { $lt: event.occurredAt } }, { asOf: { $exists: false } }] },
      { $set: { userIds, asOf: event.occurredAt, active: Boolean(created) } },
      { upsert: false },
    );
    if (!(await this.collection.findOne({ _id }, { projection: { _id: 1 } }))) {
      try {
        await this.collection.insertOne({
          _id,
          userIds,
          asOf: event.occurredAt,
          active: Boolean(created),
        });
      } catch (err) {
        if ((err as { code?: number }).code !== 11000) throw err;
      }
    }
    return true;
  }

  /** Erasure (`user.deleted`): forgets every pair naming the user, active or not. */
  async forget(userId: string): Promise<number> {
    const { deletedCount } = await this.collection.deleteMany({ userIds: userId });
    return deletedCount;
  }

  async areFriends(a: string, b: string): Promise<boolean> {
    if (a === b) return false;
    const doc = await this.collection.findOne(
      { _id: friendshipId(a, b), active: true },
      { projection: { asOf: 1 } },
    );
    if (doc === null) return false;
    return (await this.fences.fencedPairs([{ a, b, asOf: doc.asOf }])).size === 0;
  }

  async friendsOf(userId: string): Promise<string[]> {
    const docs = await this.collection.find({ userIds: userId, active: true }).toArray();
    const pairs = docs.map((d) => ({
      a: userId,
      b: d.userIds[0] === userId ? d.userIds[1] : d.userIds[0],
      asOf: d.asOf,
    }));
    const fenced = await this.fences.fencedPairs(pairs);
    return pairs.filter((p) => !fenced.has(p)).map((p) => p.b);
  }
}

/**
 * A `FriendshipProjection` kept from social's `social.friendship.v1` events, as one of
 * `startMongoProjections`' projections. `name` is its processed-event key; `after` runs after
 * each event (also on a redelivery, so it must be harmless twice).
 */
export function friendshipProjection(
  projection: FriendshipProjection,
  options: Pick<MongoProjectionSpec, 'name' | 'groupId' | 'after'>,
): MongoProjectionSpec {
  return {
    ...options,
    topics: [Topics.socialFriendship],
    apply: async (event) => {
      await projection.apply(event);
    },
  };
}
