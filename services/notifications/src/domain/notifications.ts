import {
  DEFAULT_AVATAR,
  NotificationLimits,
  visibilityOf,
  type Notification,
  type NotificationKind,
  type TripVisibility,
} from '@wayfarer/contracts';

/*
 * notifications' rules, pure: what each event makes, who is told, what is kept. No I/O: the
 * consumers pass in what the stores know.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The oldest time a notification may have at `now` and still be kept (90 days before). */
export function keptSince(now: Date): Date {
  return new Date(now.getTime() - NotificationLimits.keepDays * DAY_MS);
}

/** Whether something that happened at `at` is still worth a notification at `now`. */
export const isKept = (at: Date, now: Date): boolean => at.getTime() > keptSince(now).getTime();

/**
 * A notification to make: `kind` and `subject` for each of `recipients`, about what `actorId`
 * did at `createdAt` (the event's time). `eventId` makes it idempotent: an event makes at most
 * one notification per recipient, however often it is delivered.
 */
export interface NotificationDraft {
  eventId: string;
  kind: NotificationKind;
  actorId: string;
  subject: Record<string, string>;
  createdAt: Date;
  recipients: readonly string[];
}

/** Who is told of a new friendship, and by whom: the one who did not make it. */
export function acceptedNotice(
  pair: readonly [string, string],
  by: string,
): { recipient: string; actor: string } | null {
  if (!pair.includes(by) || pair[0] === pair[1]) return null;
  return { recipient: pair[0] === by ? pair[1] : pair[0], actor: by };
}

/** Whether a trip's friends are told of it (never of a private one; absent is `friends`). */
export const tripIsShared = (payload: { visibility?: TripVisibility }): boolean =>
  visibilityOf(payload) !== 'private';

/** The recipients of a fan-out: everyone but the actor, each once. */
export const recipientsOf = (ids: readonly string[], actorId: string): string[] =>
  [...new Set(ids)].filter((id) => id !== actorId);

/** A stored notification with its actor as the users read model knows them (null: unknown). */
export interface StoredNotification {
  id: string;
  kind: NotificationKind;
  actorId: string;
  actorName: string | null;
  actorPicture: string | null;
  subject: Record<string, string>;
  createdAt: Date;
  read: boolean;
}

/** What the API answers for a stored notification (contracts' `Notification`). */
export function notificationOf(stored: StoredNotification): Notification {
  return {
    _id: stored.id,
    kind: stored.kind,
    actor: {
      id: stored.actorId,
      name: stored.actorName ?? '',
      picture: stored.actorPicture || DEFAULT_AVATAR,
    },
    subject: stored.subject,
    createdAt: stored.createdAt.toISOString(),
    read: stored.read,
  } as Notification;
}
