import { readEvent, Topics, UserDeleted } from '@wayfarer/contracts';
import type { MongoProjectionSpec } from '@wayfarer/service-kit/mongo';
import type { JournalStores } from '../../store';
import { eraseUser } from '../../usecases/erase-user';

/** auth's `auth.user.v1`: a closed account's entries, destinations and friendships go. */
export function usersConsumer(
  stores: JournalStores,
  consumer: Pick<MongoProjectionSpec, 'name' | 'groupId'>,
): MongoProjectionSpec {
  return {
    ...consumer,
    topics: [Topics.authUser],
    apply: async (event) => {
      const deleted = readEvent(UserDeleted, event);
      if (deleted) await eraseUser(stores, deleted.payload.userId);
    },
  };
}
