import { loadConfig, main, serveService } from '@wayfarer/service-kit';
import { SocialEnv } from './config';
import { createService } from './service';

main('social', async () => {
  const env = loadConfig(SocialEnv, process.env);
  await serveService(await createService(env), env);
});
