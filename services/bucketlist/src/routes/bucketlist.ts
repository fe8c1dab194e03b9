import { z } from 'zod';
import {
  BucketListMessages,
  NewBucketListItem,
  type BucketListResponse,
  type BucketListVisitResponse,
} from '@wayfarer/contracts';
import {
  jsonIdempotencyClaim,
  notFound,
  parse,
  requireUserId,
  sendOutcome,
} from '@wayfarer/service-kit';
import { addItem } from '../usecases/add-item';
import { listItems } from '../usecases/list-items';
import { visitItem } from '../usecases/visit-item';
import type { BucketListContext } from './context';

const Params = z.object({ id: z.string() });

export function bucketListRoutes(ctx: BucketListContext): void {
  const { app, deps } = ctx;

  /** Every item of the caller, visited ones included (the client drops them). */
  app.get('/api/bucketlist', async (request) => {
    const body: BucketListResponse = await listItems(deps, requireUserId(request));
    return body;
  });

  /** Takes an `Idempotency-Key`: a retry with it answers the first answer, adding nothing. */
  app.post('/api/bucketlist', async (request, reply) => {
    const userId = requireUserId(request);
    // unknown keys (an ownerId, an _id) are dropped by the schema
    const input = parse(NewBucketListItem, request.body);
    const claim = jsonIdempotencyClaim(request, userId, input);
    return sendOutcome(reply, await addItem(deps, { userId, input, claim }));
  });

  /** The checkbox: the item is marked visited (kept with the time), not erased. */
  app.delete('/api/bucketlist/:id', async (request) => {
    const userId = requireUserId(request);
    const { id } = parse(Params, request.params);
    const item = await visitItem(deps, userId, id, ctx.now());
    if (!item) throw notFound(BucketListMessages.notFound);
    const body: BucketListVisitResponse = { message: BucketListMessages.visited, data: item };
    return body;
  });
}
