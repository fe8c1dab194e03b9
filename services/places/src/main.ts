import { loadConfig, main, runService } from '@wayfarer/service-kit';
import { PlacesEnv } from './config';
import { createService } from './service';

main('places', async () => {
  const env = loadConfig(PlacesEnv);
  const svc = await createService(env);
  await runService({
    app: svc.app,
    port: env.PORT,
    host: env.HOST,
    logger: svc.logger,
    closers: [() => svc.close()],
  });
  await svc.indexed; // a city index that cannot be built ends the process (exit 1)
});
