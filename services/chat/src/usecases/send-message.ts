import {
  ChatEvents,
  ChatMessages,
  IdempotencyKey,
  IdempotencyMessages,
  ReceiveMessage,
} from '@wayfarer/contracts';
import { recordedAnswer, RequestFingerprint, type IdempotencyClaim } from '@wayfarer/service-kit';
import { ChatRefusedError } from '../domain/errors';
import { receiveMessageOf } from '../domain/messages';
import { messageSentEntry } from '../events/outbox';
import type { MessageDoc } from '../store/messages';
import type { ChatUseCaseDeps } from './deps';

export interface SendMessageInput {
  /** The conversation (`roomOfMessage` of the sender and `recipientId`). */
  roomId: string;
  recipientId: string;
  /** The text as stored (`checkText`). */
  text: string;
  /** The sender's id of the message, its idempotency key (unique per sender). */
  clientId?: string;
}

/**
 * The sender's message to a friend, stored with its `message.sent` (one insert: stored if and
 * only if announced), once per `clientId`: service-kit's `runUseCase` claims the key, whose
 * record the message's own insert keeps. Refused when the recipient is not a friend now, or the `clientId` is not
 * a valid key. A resend with the same `clientId` (its ack was lost) is answered the stored
 * message and stores nothing; the same `clientId` for another text throws service-kit's 422.
 */
export async function sendMessage(
  deps: ChatUseCaseDeps,
  senderId: string,
  input: SendMessageInput,
): Promise<ReceiveMessage> {
  const { stores } = deps;
  const { roomId, recipientId, text, clientId } = input;
  // asked beside the friendship check: whether the recipient is in the conversation now
  // (their `message.sent` says it, for notifications)
  const recipientInRoom = deps.presence?.(roomId, recipientId) ?? Promise.resolve(false);
  if (!(await stores.friendships.areFriends(senderId, recipientId))) {
    throw new ChatRefusedError('forbidden', ChatMessages.notFriends);
  }
  let claim: IdempotencyClaim | null = null;
  if (clientId !== undefined) {
    if (!IdempotencyKey.safeParse(clientId).success) {
      throw new ChatRefusedError('invalid', IdempotencyMessages.badClientId);
    }
    const fingerprint = new RequestFingerprint(ChatEvents.sendMessage, roomId)
      .field('text', text)
      .digest();
    claim = { owner: senderId, key: clientId, fingerprint };
  }
  const present = await recipientInRoom;
  const outcome = await stores.messages.idempotency.runUseCase(
    claim,
    (doc: MessageDoc) => recordedAnswer(200, receiveMessageOf(doc, clientId)),
    async () => {
      const stored = await stores.messages.insert(
        { roomId, senderId, content: text, timestamp: new Date() },
        (doc) => [messageSentEntry(doc, recipientId, present)],
      );
      deps.onStored?.();
      return receiveMessageOf(stored, clientId);
    },
  );
  return outcome.replayed ? ReceiveMessage.parse(JSON.parse(outcome.answer.body)) : outcome.value;
}
