import type { SearchUser } from '@wayfarer/contracts';
import type { SocialDeps } from './deps';

/**
 * The users matching `pattern` (domain/search's contains-pattern), with where the caller stands
 * with each; a closed account leaves search at once, before its `user.deleted` arrives.
 */
export async function searchUsers(
  deps: SocialDeps,
  userId: string,
  pattern: string,
): Promise<SearchUser[]> {
  const rows = await deps.stores.search.search(userId, pattern);
  const closed = await deps.fences.closedAmong(rows.map((r) => r._id));
  return closed.size === 0 ? rows : rows.filter((r) => !closed.has(r._id));
}
