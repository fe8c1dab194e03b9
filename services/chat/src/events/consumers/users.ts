import { Topics } from '@wayfarer/contracts';
import type { MongoProjectionSpec } from '@wayfarer/service-kit/mongo';
import type { ChatStores } from '../../store';
import { applyUserEvent } from '../../usecases/apply-user-event';

/** auth's `auth.user.v1`: users' names and pictures, closed accounts erased. */
export function usersConsumer(
  stores: ChatStores,
  consumer: Pick<MongoProjectionSpec, 'name' | 'groupId'>,
): MongoProjectionSpec {
  return {
    ...consumer,
    topics: [Topics.authUser],
    apply: (event) => applyUserEvent(stores, event),
  };
}
