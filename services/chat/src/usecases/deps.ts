import type { ChatStores } from '../store';

/** What chat's use cases work with. */
export interface ChatUseCaseDeps {
  stores: ChatStores;
  /**
   * Whether `userId` has a socket in `roomId` now, on any instance (false when that is not
   * known in time; never throws): the socket server's presence.
   */
  presence?: (roomId: string, userId: string) => Promise<boolean>;
  /** Called after a message (and its `message.sent` in its outbox) is stored: the relay's kick. */
  onStored?: () => void;
}
