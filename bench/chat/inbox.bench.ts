/**
 * The inbox (`GET /api/conversations`) of a user with 500 conversations, p95 within
 * 3x a primary-key read (`findOne({_id})` of a user document) on the same MongoDB-wire database
 * in the same rounds.
 *
 *   node --import tsx bench/chat/inbox.bench.ts          (infra up: deploy/local/up)
 *
 * chat is booted by its composition root on a fresh database. The inbox is filled by chat's own
 * store as its consumer of `message.sent` fills it (`stores.inbox.applyMessage`, both sides of
 * each of 500 conversations, several in flight); the friends' user documents as its users
 * projection writes them. The route is called as the gateway calls it (Fastify inject, identity
 * proof), interleaved with the baseline round by round, each round in another order. The whole
 * inbox is one answer (every conversation: contracts' ConversationsResponse), kept by each
 * instance while the document's write counter says it has not changed (`InboxAnswers`: one
 * small read). Informative rows: the read after a change (the whole document read and decoded,
 * `stores.inbox.list`), and `POST /api/conversations/{roomId}/read` (its own rounds after the
 * others: each one changes the inbox).
 *
 * Measured (2 cores shared with other work, 2026-11-26): see bench/README.md.
 */
import { IdentityHeaders, messagePreview, roomIdOf } from '@wayfarer/contracts';
import { loadConfig } from '@wayfarer/service-kit';
import {
  dropMongoDatabase,
  testServiceEnv,
  throughGateway,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { ChatEnv, createService } from '@wayfarer/chat';
import { recordBudget } from '../lib/results';
import { percentile, timed } from '../lib/stats';

const CONVERSATIONS = 500;
const IN_FLIGHT = 8;
const WARMUP = 10;
const ROUNDS = 60;

const env = loadConfig(ChatEnv, testServiceEnv({ MONGO_DB: `bench_inbox_${uniqueSuffix()}` }));
const svc = await createService(env, { skipHistory: true });
try {
  const me = 'bench-me';
  const friends = Array.from({ length: CONVERSATIONS }, (_, i) => `friend${i}`);
  await svc.stores.users.collection.insertMany([
    { _id: me, name: 'Me', email: 'me@example.com', picture: '' },
    ...friends.map((id, i) => ({
      _id: id,
      name: `Friend ${i}`,
      email: `${id}@example.com`,
      picture: `/api/avatars/${id}/a.webp`,
    })),
  ]);
  const seedStart = performance.now();
  const base = Date.now() - CONVERSATIONS * 60_000;
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < friends.length) {
        const i = next++;
        const friend = friends[i]!;
        // every other conversation: the friend wrote last (unread for me)
        const [senderId, recipientId] = i % 2 ? [friend, me] : [me, friend];
        await svc.stores.inbox.applyMessage(
          {
            messageId: (i + 1).toString(16).padStart(24, '0'),
            roomId: roomIdOf(me, friend),
            senderId,
            recipientId,
            preview: messagePreview(`Message ${i}: ${'a traveller writes '.repeat(8)}`),
            timestamp: new Date(base + i * 60_000).toISOString(),
          },
          (id) => svc.stores.users.profile(id),
        );
      }
    }),
  );
  const seedMs = performance.now() - seedStart;

  const app = throughGateway(svc.app);
  const headers = { [IdentityHeaders.userId]: me };
  let bytes = 0;
  const inbox = async () => {
    const res = await app.inject({ url: '/api/conversations', headers });
    if (res.statusCode !== 200)
      throw new Error(`GET /api/conversations answered ${res.statusCode}`);
    if (res.json<unknown[]>().length !== CONVERSATIONS) throw new Error('conversations missing');
    bytes = res.rawPayload.length;
  };
  const whole = () => svc.stores.inbox.list(me);
  let reads = 0;
  const markRead = async () => {
    const room = roomIdOf(me, friends[(reads++ * 2 + 1) % CONVERSATIONS]!);
    const res = await app.inject({
      method: 'POST',
      url: `/api/conversations/${room}/read`,
      headers,
    });
    if (res.statusCode !== 200) throw new Error(`POST read answered ${res.statusCode}`);
  };
  const pk = async () => {
    const doc = await svc.stores.users.collection.findOne({ _id: 'friend7' });
    if (!doc) throw new Error('primary-key read found nothing');
  };
  const sides = { inbox, whole, pk };
  const ms: Record<keyof typeof sides | 'markRead' | 'pkAfter', number[]> = {
    inbox: [],
    whole: [],
    pk: [],
    markRead: [],
    pkAfter: [],
  };
  for (let i = 0; i < WARMUP; i++) for (const fn of Object.values(sides)) await fn();
  for (let i = 0; i < ROUNDS; i++) {
    const order = Object.keys(sides) as (keyof typeof sides)[];
    for (let k = 0; k < i % order.length; k++) order.push(order.shift()!);
    for (const side of order) ms[side].push(await timed(sides[side]));
  }
  for (let i = 0; i < ROUNDS; i++) {
    ms.markRead.push(await timed(markRead));
    ms.pkAfter.push(await timed(pk));
  }
  const p = (side: keyof typeof ms, q: number) => percentile(ms[side], q);
  console.log(
    `GET /api/conversations (${CONVERSATIONS} conversations, ${bytes} bytes): p50 ${p('inbox', 50).toFixed(2)} ms, ` +
      `p95 ${p('inbox', 95).toFixed(2)} ms; whole document read p95 ${p('whole', 95).toFixed(2)} ms; ` +
      `mark read p95 ${p('markRead', 95).toFixed(2)} ms; primary-key read p50 ` +
      `${p('pk', 50).toFixed(3)} ms, p95 ${p('pk', 95).toFixed(3)} ms; seeded in ${seedMs.toFixed(0)} ms`,
  );
  const rounds = `${ROUNDS} interleaved rounds after ${WARMUP} warm-up; the baseline is findOne of a user by _id on the same database`;
  recordBudget({
    name: `GET /api/conversations (${CONVERSATIONS} conversations) p95 / primary-key read p95`,
    figure: p('inbox', 95),
    baseline: p('pk', 95),
    unit: 'ms',
    budget: { ratioAtMost: 3 },
    note: `answer ${bytes} bytes; p50 ${p('inbox', 50).toFixed(2)} ms vs ${p('pk', 50).toFixed(3)} ms; ${rounds}`,
  });
  recordBudget({
    name: `inbox read after a change (the whole document, stores.inbox.list, ${CONVERSATIONS} conversations) p95 / primary-key read p95`,
    figure: p('whole', 95),
    baseline: p('pk', 95),
    unit: 'ms',
    budget: { none: true },
    note: `p50 ${p('whole', 50).toFixed(2)} ms: mostly the driver decoding 180 kB of nested BSON; ${rounds}`,
  });
  recordBudget({
    name: `POST /api/conversations/{roomId}/read (${CONVERSATIONS} conversations) p95 / primary-key read p95`,
    figure: p('markRead', 95),
    baseline: p('pkAfter', 95),
    unit: 'ms',
    budget: { none: true },
    note: `p50 ${p('markRead', 50).toFixed(2)} ms; ${ROUNDS} rounds of its own, alternating with the baseline (mongo-java-server rewrites the whole document)`,
  });
} finally {
  await svc.close();
  await dropMongoDatabase(env.MONGO_DB);
}
