/**
 * auth's consumers: each name is its processed-event key and, behind KAFKA_GROUP_PREFIX
 * (`groupId(env, name)`), its Kafka consumer group.
 */
export const CONSUMERS = {
  /** `auth.user` (its own): a closed account's avatars (`auth-user.ts`). */
  erasure: 'auth-erasure',
} as const;

export { startAuthUserConsumer } from './auth-user';
