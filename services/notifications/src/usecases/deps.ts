import type { NotificationsStore } from '../store/notifications';
import type { FriendshipsStore } from '../store/friendships';
import type { UsersStore } from '../store/users';

/** notifications' stores, one per aggregate or read model. */
export interface NotificationsStores {
  notifications: NotificationsStore;
  users: UsersStore;
  friendships: FriendshipsStore;
}

/** What notifications' use cases work with (built once by service.ts). */
export interface NotificationsDeps {
  stores: NotificationsStores;
  /** The clock of the 90-day bound (tests: a later day). */
  now: () => Date;
}
