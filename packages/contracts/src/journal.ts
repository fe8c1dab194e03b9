import { z } from 'zod';
import { defineEvent, Topics } from './events';
import { plainText } from './text';

export const JournalLimits = { contentMax: 20_000 } as const;

/** `POST /api/journal` body. `date` is the client's current time. */
export const JournalSaveBody = z.object({
  destinationId: plainText().trim().min(1).max(100),
  content: plainText('multiline').max(
    JournalLimits.contentMax,
    `A journal holds at most ${JournalLimits.contentMax} characters.`,
  ),
  date: z.iso.datetime({ offset: true }).or(z.iso.date()).optional(),
});
export type JournalSaveBody = z.infer<typeof JournalSaveBody>;

export const JournalResponse = z.object({ content: z.string(), message: z.string() });
export type JournalResponse = z.infer<typeof JournalResponse>;

export const JournalSaved = defineEvent({
  topic: Topics.journalEntry,
  type: 'journal.saved',
  version: 1,
  payload: z.object({
    destinationId: z.string(),
    ownerId: z.string(),
    date: z.string(),
    /**
     * The saved text: trips keeps it to show on a share link that includes stories.
     * Absent in events published before; the events stay inside the system like trip.created's
     * stories, and `user.deleted` / `trip.deleted` erase every copy.
     */
    content: z.string().optional(),
  }),
});
