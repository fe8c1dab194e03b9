import { ChatMessageSent, readEvent, Topics } from '@wayfarer/contracts';
import type { MongoProjectionSpec } from '@wayfarer/service-kit/mongo';
import type { ChatStores } from '../../store';
import { updateInboxes } from '../../usecases/update-inboxes';

/** chat's own `chat.message.v1` (`message.sent`): each user's inbox. */
export function messagesConsumer(
  stores: ChatStores,
  consumer: Pick<MongoProjectionSpec, 'name' | 'groupId'>,
): MongoProjectionSpec {
  return {
    ...consumer,
    topics: [Topics.chatMessage],
    apply: async (event) => {
      const sent = readEvent(ChatMessageSent, event);
      if (sent) await updateInboxes(stores, sent.payload);
    },
  };
}
