import { loadConfig, main, runService } from '@wayfarer/service-kit';
import { AuthEnv } from './config';
import { createService } from './service';

main('auth', async () => {
  const env = loadConfig(AuthEnv);
  const svc = await createService(env);
  await runService({
    app: svc.app,
    port: env.PORT,
    host: env.HOST,
    logger: svc.logger,
    closers: [() => svc.close()],
  });
});
