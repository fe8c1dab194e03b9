import { expect, it } from 'vitest';
import { groupId, loadConfig } from '@wayfarer/service-kit';
import {
  dropConsumerGroups,
  dropDatabase,
  testInfra,
  testServiceEnv,
  uniqueSuffix,
} from '@wayfarer/test-kit';
import { BucketListEnv } from '../../src/config';
import { CONSUMERS } from '../../src/events/consumers';
import { createService } from '../../src/service';

it('creates its database on start when PG_URL names the server (compose)', async () => {
  const url = new URL(testInfra().pgUrl);
  url.pathname = `/t_bucketlist_new_${uniqueSuffix()}`;
  const env = loadConfig(
    BucketListEnv,
    testServiceEnv({ DATABASE_URL: url.toString(), PG_URL: testInfra().pgUrl }),
  );
  try {
    const svc = await createService(env, { skipHistory: true });
    try {
      const { rows } = await svc.pool.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM bucket_items',
      );
      expect(rows[0]!.n).toBe(0);
      expect((await svc.app.inject({ url: '/readyz' })).statusCode).toBe(200);
    } finally {
      await svc.close();
      await svc.tripConsumer.started;
    }
  } finally {
    await dropConsumerGroups([groupId(env, CONSUMERS.trips)]);
    await dropDatabase(url.toString());
  }
});
