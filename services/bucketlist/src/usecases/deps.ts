import type { OutboxRelay } from '@wayfarer/service-kit';
import type { Pool } from '@wayfarer/service-kit/pg';
import type { ItemsStore } from '../store/items';

/** What bucketlist's use cases work with. */
export interface BucketListUseCaseDeps {
  pool: Pool;
  items: ItemsStore;
  /** Kicked after a commit that enqueued events; optional (the relay also polls). */
  relay?: Pick<OutboxRelay, 'kick'>;
}
