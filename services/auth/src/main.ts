import { loadConfig, main, serveService } from '@wayfarer/service-kit';
import { AuthEnv } from './config';
import { createService } from './service';

main('auth', async () => {
  const env = loadConfig(AuthEnv);
  await serveService(await createService(env), env);
});
