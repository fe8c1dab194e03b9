import { loadConfig, main, serveService } from '@wayfarer/service-kit';
import { BucketListEnv } from './config';
import { createService } from './service';

main('bucketlist', async () => {
  const env = loadConfig(BucketListEnv, process.env);
  await serveService(await createService(env), env);
});
