import { loadConfig, main, serveService } from '@wayfarer/service-kit';
import { ChatEnv } from './config';
import { createService } from './service';

main('chat', async () => {
  const env = loadConfig(ChatEnv);
  await serveService(await createService(env), env);
});
