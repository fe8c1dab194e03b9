import { loadConfig, main, serveService } from '@wayfarer/service-kit';
import { JournalEnv } from './config';
import { createService } from './service';

main('journal', async () => {
  const env = loadConfig(JournalEnv);
  await serveService(await createService(env), env);
});
