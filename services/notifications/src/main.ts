import { loadConfig, main, serveService } from '@wayfarer/service-kit';
import { NotificationsEnv } from './config';
import { createService } from './service';

main('notifications', async () => {
  const env = loadConfig(NotificationsEnv, process.env);
  await serveService(await createService(env), env);
});
