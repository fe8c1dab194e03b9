import type { TripVisibility } from '@wayfarer/contracts';

/**
 * Who may read and write a destination's journal (the owner edits, friends read, nobody
 * else sees it; a private trip's journals are its owner's alone). Pure:
 * the caller looks up the owner, the trip's visibility and the friendship.
 */

/** How the caller stands to a destination. `none`: the destination is unknown here. */
export type Relation = 'owner' | 'friend' | 'stranger' | 'none';

export interface AccessFacts {
  userId: string;
  /** The destination's owner, or null when no trip event has told us about it. */
  ownerId: string | null;
  /** Whether the caller and the owner are friends (ignored for the owner). */
  friends: boolean;
  /** The trip's visibility (absent: `friends`, every trip written before trips had a visibility). */
  visibility?: TripVisibility;
}

/**
 * How the caller stands to the destination. A friend of the owner is a `stranger` to a private
 * trip's destination: they get exactly what someone unknown gets (a 404, never a 403 that
 * would tell the journal exists).
 */
export function relationOf({ userId, ownerId, friends, visibility }: AccessFacts): Relation {
  if (ownerId === null) return 'none';
  if (ownerId === userId) return 'owner';
  return friends && visibility !== 'private' ? 'friend' : 'stranger';
}

/** What to answer: go ahead, 403 (may see it but not change it) or 404 (must not see it). */
export type Decision = 'allow' | 'forbidden' | 'not_found';

/** Reads: the owner and the owner's friends. Anyone else cannot tell it exists. */
export function readDecision(relation: Relation): Decision {
  return relation === 'owner' || relation === 'friend' ? 'allow' : 'not_found';
}

/** Writes: the owner only. A friend, who can read it, is told so; anyone else gets a 404. */
export function writeDecision(relation: Relation): Decision {
  if (relation === 'owner') return 'allow';
  return relation === 'friend' ? 'forbidden' : 'not_found';
}

/** Destination ids come from trips (ObjectId hex or UUID): a conservative charset and length. */
export const DESTINATION_ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

export const JournalMessages = {
  retrieved: 'Journal retrieved.',
  saved: 'Journal saved.',
  notFound: 'Journal not found.',
  ownerOnly: 'Only the owner can edit this journal.',
  badDestinationId: 'destinationId must be 1 to 100 letters, digits, "_" or "-".',
} as const;
