import { makeEvent, Topics, UserRegistered, type Topic } from '@wayfarer/contracts';
import { enqueueEvent, type PoolClient } from '@wayfarer/service-kit/pg';

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
