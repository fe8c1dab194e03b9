import { loadConfig, main, serveService } from '@wayfarer/service-kit';
import { TripsEnv } from './config';
import { createService } from './service';

main('trips', async () => {
  const env = loadConfig(TripsEnv);
  await serveService(await createService(env), env);
});
