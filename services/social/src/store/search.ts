import { SocialLimits, type SearchUser } from '@wayfarer/contracts';
import type { Pool } from '@wayfarer/service-kit/pg';

/** The users search finds (the users read model, by their search key). */
export class SearchStore {
  constructor(private readonly pool: Pool) {}

  /**
   * Users whose search key matches `pattern` (domain/search: a LIKE pattern with `\` as its
   * escape), by name, at most SocialLimits.searchResultsMax, leaving out the caller and their
   * friends; each with where the caller stands with them.
   */
  async search(userId: string, pattern: string): Promise<SearchUser[]> {
    const { rows } = await this.pool.query<SearchUser>(
      `SELECT u.id AS "_id", u.name, u.picture,
              CASE
                WHEN EXISTS (SELECT 1 FROM friend_requests r
                              WHERE r.to_id = u.id AND r.from_id = $1) THEN 'pending'
                WHEN EXISTS (SELECT 1 FROM friend_requests r
                              WHERE r.to_id = $1 AND r.from_id = u.id) THEN 'incoming'
                ELSE 'none'
              END AS status
         FROM users u
        WHERE u.search_key LIKE $2 ESCAPE '\\'
          AND u.id <> $1
          AND NOT EXISTS (SELECT 1 FROM friendships f WHERE f.user_id = $1 AND f.friend_id = u.id)
        ORDER BY u.name, u.id
        LIMIT $3`,
      [userId, pattern, SocialLimits.searchResultsMax],
    );
    return rows;
  }
}
