/*
 * An import is one unit: its trips are written hidden, then
 * shown all at once when the import commits. A hidden trip is stored under an owner no user can
 * be (`importOwner`): every read of trips goes by its owner (the list, a trip, its photos, the
 * export, share links, edits, the erasure) or checks it (`domain/access.ts`), so none of them
 * sees it, and its `trip.created` waits beside it until the commit (docs/services/trips.md,
 * "Import").
 */

const PREFIX = 'import:';

/** The owner a trip of the running import `importId` is stored under until it commits. */
export const importOwner = (importId: string): string => `${PREFIX}${importId}`;

/** Whether `ownerId` is a hidden import's (never a user: user ids are auth's UUIDs). */
export const isImportOwner = (ownerId: string): boolean => ownerId.startsWith(PREFIX);
