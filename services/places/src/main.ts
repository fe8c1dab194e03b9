import { loadConfig, main, serveService } from '@wayfarer/service-kit';
import { PlacesEnv } from './config';
import { createService } from './service';

main('places', async () => {
  const env = loadConfig(PlacesEnv);
  const svc = await createService(env);
  await serveService(svc, env);
  await svc.indexed; // a city index that cannot be built ends the process (exit 1)
});
