import type { EventEnvelope, NotificationPushMessage } from '@wayfarer/contracts';
import type { PoolClient } from '@wayfarer/service-kit/pg';
import type { NotificationsStores } from '../../usecases/deps';

/** Applies one event in the consumer's transaction; returns the notifications it stored. */
export type Apply = (
  stores: NotificationsStores,
  client: PoolClient,
  event: EventEnvelope,
  now: Date,
) => Promise<NotificationPushMessage[]>;
