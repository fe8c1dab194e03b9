import {
  makeEvent,
  Topics,
  UserDeleted,
  UserRegistered,
  UserUpdated,
  type Topic,
} from '@wayfarer/contracts';
import { enqueueEvent, eraseFromOutbox, type PoolClient } from '@wayfarer/service-kit/pg';

/** Topics auth publishes (created by the outbox relay on first connect). */
export const PUBLISHED_TOPICS: readonly Topic[] = [Topics.authUser];

/** Records `user.registered` in the caller's transaction (the one that inserts the user). */
export async function enqueueUserRegistered(
  client: PoolClient,
  user: { id: string; name: string; email: string; profilePicture: string },
): Promise<string> {
  const event = makeEvent(UserRegistered, user.id, {
    userId: user.id,
    name: user.name,
    email: user.email,
    profilePicture: user.profilePicture,
  });
  await enqueueEvent(client, UserRegistered.topic, event);
  return event.id;
}

/** Records `user.updated` (the profile as it now is) in the caller's transaction. */
export async function enqueueUserUpdated(
  client: PoolClient,
  user: { id: string; name: string; profilePicture: string },
): Promise<void> {
  const event = makeEvent(UserUpdated, user.id, {
    userId: user.id,
    name: user.name,
    profilePicture: user.profilePicture,
  });
  await enqueueEvent(client, UserUpdated.topic, event);
}

/**
 * Records `user.deleted` in the caller's transaction (the one erasing the user's row), after
 * erasing every earlier outbox row naming the user (their `user.registered` carries the email;
 * an unsent one would announce a user who is gone). The event itself is deleted once sent
 * (`forgetOnPublish`): the outbox keeps no trace of the user.
 */
export async function enqueueUserDeleted(client: PoolClient, userId: string): Promise<void> {
  await eraseFromOutbox(client, userId);
  const event = makeEvent(UserDeleted, userId, { userId });
  await enqueueEvent(client, UserDeleted.topic, event, { forgetOnPublish: true });
}
