import { loadConfig, main, runService } from '@wayfarer/service-kit';
import { TripsEnv } from './config';
import { createService } from './service';

main('trips', async () => {
  const env = loadConfig(TripsEnv);
  const svc = await createService(env);
  await runService({
    app: svc.app,
    port: env.PORT,
    host: env.HOST,
    logger: svc.logger,
    closers: [() => svc.close()],
  });
});
