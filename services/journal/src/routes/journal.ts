import { z } from 'zod';
import { JournalSaveBody, plainText, type JournalResponse } from '@wayfarer/contracts';
import {
  HttpError,
  jsonIdempotencyClaim,
  parse,
  recordedAnswer,
  requireUserId,
  sendOutcome,
} from '@wayfarer/service-kit';
import {
  DESTINATION_ID_PATTERN,
  JournalMessages,
  readDecision,
  relationOf,
  writeDecision,
  type Relation,
} from '../domain/access';
import { journalSavedEntry } from '../events/outbox';
import type { JournalContext } from './context';

const DestinationId = plainText().regex(DESTINATION_ID_PATTERN, JournalMessages.badDestinationId);
const Params = z.object({ destinationId: DestinationId });
const SaveBody = JournalSaveBody.extend({ destinationId: DestinationId });

const notFound = () => new HttpError(404, JournalMessages.notFound);

export function journalRoutes(ctx: JournalContext): void {
  const { app, stores } = ctx;

  /** The caller's relation to a destination, from journal's own projections. */
  async function relationTo(userId: string, destinationId: string): Promise<Relation> {
    const access = await stores.destinations.accessOf(destinationId);
    const ownerId = access?.ownerId ?? null;
    const friends =
      ownerId !== null && ownerId !== userId
        ? await stores.friendships.areFriends(userId, ownerId)
        : false;
    return relationOf({ userId, ownerId, friends, visibility: access?.visibility });
  }

  app.get('/api/journal/:destinationId', async (request) => {
    const userId = requireUserId(request);
    const { destinationId } = parse(Params, request.params);
    if (readDecision(await relationTo(userId, destinationId)) !== 'allow') throw notFound();
    const content = (await stores.entries.contentOf(destinationId)) ?? '';
    const body: JournalResponse = { content, message: JournalMessages.retrieved };
    return body;
  });

  /**
   * Takes an `Idempotency-Key`: a retry of the entry's latest keyed save answers its first
   * answer and writes nothing (no second `journal.saved`).
   */
  app.post('/api/journal', async (request, reply) => {
    const userId = requireUserId(request);
    // unknown keys (a client-sent ownerId or userId) are dropped by the schema
    const input = parse(SaveBody, request.body);
    const { destinationId, content, date } = input;
    const claim = jsonIdempotencyClaim(request, userId, input);
    const outcome = await stores.entries.idempotency.run(claim, async (stamp, notHoldingKey) => {
      const decision = writeDecision(await relationTo(userId, destinationId));
      if (decision === 'not_found') throw notFound();
      if (decision === 'forbidden') throw new HttpError(403, JournalMessages.ownerOnly);

      const updatedAt = new Date();
      const save = {
        destinationId,
        ownerId: userId,
        content,
        date: date ?? updatedAt.toISOString(),
        updatedAt,
      };
      const answer = recordedAnswer(200, { message: JournalMessages.saved });
      await stores.entries.save(
        save,
        [journalSavedEntry(save, updatedAt)],
        stamp(answer),
        notHoldingKey,
      );

      // trip.deleted may have landed between the check and the write: it tombstones the
      // destinations before deleting entries, so seeing no owner now means ours must go too.
      if ((await stores.destinations.ownerOf(destinationId)) === null) {
        await stores.entries.removeMany([destinationId]);
        throw notFound();
      }
      return { answer, value: null };
    });
    if (!outcome.replayed) ctx.relay?.kick();
    return sendOutcome(reply, outcome);
  });
}
