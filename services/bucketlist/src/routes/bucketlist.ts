import { z } from 'zod';
import {
  BucketListMessages,
  NewBucketListItem,
  type BucketListItemResponse,
  type BucketListResponse,
  type BucketListVisitResponse,
} from '@wayfarer/contracts';
import {
  jsonIdempotencyClaim,
  notFound,
  parse,
  recordedAnswer,
  requireUserId,
  sendOutcome,
} from '@wayfarer/service-kit';
import { isItemId } from '../domain/visits';
import type { BucketListContext } from './context';

const Params = z.object({ id: z.string() });

export function bucketListRoutes(ctx: BucketListContext): void {
  const { app, items } = ctx;

  /** Every item of the caller, visited ones included (the client drops them, spec section 7). */
  app.get('/api/bucketlist', async (request) => {
    const userId = requireUserId(request);
    const body: BucketListResponse = await items.list(userId);
    return body;
  });

  /** Takes an `Idempotency-Key`: a retry with it answers the first answer, adding nothing. */
  app.post('/api/bucketlist', async (request, reply) => {
    const userId = requireUserId(request);
    // unknown keys (an ownerId, an _id) are dropped by the schema
    const input = parse(NewBucketListItem, request.body);
    const claim = jsonIdempotencyClaim(request, userId, input);
    const outcome = await items.add(userId, input, claim, (item) => {
      const body: BucketListItemResponse = { data: item };
      return recordedAnswer(201, body);
    });
    if (!outcome.replayed) ctx.relay?.kick();
    return sendOutcome(reply, outcome);
  });

  /** The checkbox: the item is marked visited (kept with the time), not erased. */
  app.delete('/api/bucketlist/:id', async (request) => {
    const userId = requireUserId(request);
    const { id } = parse(Params, request.params);
    const item = isItemId(id) ? await items.visit(userId, id, ctx.now()) : null;
    if (!item) throw notFound(BucketListMessages.notFound);
    ctx.relay?.kick();
    const body: BucketListVisitResponse = { message: BucketListMessages.visited, data: item };
    return body;
  });
}
