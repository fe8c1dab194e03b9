import type { FriendStatsResponse, StatsResponse } from '@wayfarer/contracts';
import { apiFetch } from '../api/client';

export type { FriendStatsResponse, StatsResponse } from '@wayfarer/contracts';

/** `GET /api/stats`: the signed-in user's figures (every trip, private ones included). */
export function fetchStats(signal?: AbortSignal): Promise<StatsResponse> {
  return apiFetch<StatsResponse>('/api/stats', { signal });
}

/** `GET /api/stats/friends/{friendId}`: a current friend's figures and the shared countries. */
export function fetchFriendStats(
  friendId: string,
  signal?: AbortSignal,
): Promise<FriendStatsResponse> {
  return apiFetch<FriendStatsResponse>(`/api/stats/friends/${encodeURIComponent(friendId)}`, {
    signal,
  });
}
