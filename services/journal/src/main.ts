import { loadConfig, main, runService } from '@wayfarer/service-kit';
import { JournalEnv } from './config';
import { createService } from './service';

main('journal', async () => {
  const env = loadConfig(JournalEnv);
  const svc = await createService(env);
  await runService({
    app: svc.app,
    port: env.PORT,
    host: env.HOST,
    logger: svc.logger,
    closers: [() => svc.close()],
  });
});
