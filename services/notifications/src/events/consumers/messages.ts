import { ChatMessageSent, readEvent } from '@wayfarer/contracts';
import { messageSent } from '../../usecases/notify-message';
import type { Apply } from './apply';

/** chat: a message sent while its recipient was not in the conversation tells them. */
export const applyMessageEvent: Apply = async (stores, client, event, now) => {
  const sent = readEvent(ChatMessageSent, event);
  return sent ? messageSent(stores, client, sent, now) : [];
};
