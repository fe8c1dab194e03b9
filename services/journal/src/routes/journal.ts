import { z } from 'zod';
import { JournalSaveBody, plainText, type JournalResponse } from '@wayfarer/contracts';
import { jsonIdempotencyClaim, parse, requireUserId, sendOutcome } from '@wayfarer/service-kit';
import { DESTINATION_ID_PATTERN, JournalMessages } from '../domain/access';
import { readJournal } from '../usecases/read-journal';
import { saveJournal } from '../usecases/save-journal';
import type { JournalContext } from './context';

const DestinationId = plainText().regex(DESTINATION_ID_PATTERN, JournalMessages.badDestinationId);
const Params = z.object({ destinationId: DestinationId });
const SaveBody = JournalSaveBody.extend({ destinationId: DestinationId });

export function journalRoutes(ctx: JournalContext): void {
  const { app, deps } = ctx;

  app.get('/api/journal/:destinationId', async (request) => {
    const userId = requireUserId(request);
    const { destinationId } = parse(Params, request.params);
    const content = await readJournal(deps, userId, destinationId);
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
    const claim = jsonIdempotencyClaim(request, userId, input);
    return sendOutcome(reply, await saveJournal(deps, { userId, input, claim }));
  });
}
