import type { OutboxRelay } from '@wayfarer/service-kit';
import type { JournalStores } from '../store';

/** What journal's use cases work with. */
export interface JournalUseCaseDeps {
  stores: JournalStores;
  /** Kicked after a save that enqueued `journal.saved`; optional (the relay also polls). */
  relay?: Pick<OutboxRelay, 'kick'>;
}
