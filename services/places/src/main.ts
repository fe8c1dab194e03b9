import { createLogger, loadConfig, main, runService } from '@wayfarer/service-kit';
import { buildApp } from './app';
import { PlacesEnv } from './config';
import { buildPlaceIndex, type PlaceIndex } from './domain/place-index';
import { loadCities } from './store/cities';

main('places', async () => {
  const env = loadConfig(PlacesEnv);
  const logger = createLogger('places', env.LOG_LEVEL);

  // Listen first (so /healthz answers), then build the index; /readyz turns 200 when it is done.
  let ready!: (index: PlaceIndex) => void;
  let failed!: (err: unknown) => void;
  const index = new Promise<PlaceIndex>((resolve, reject) => {
    ready = resolve;
    failed = reject;
  });
  index.catch(() => undefined); // reported below

  const app = buildApp({ logger, index });
  await runService({ app, port: env.PORT, host: env.HOST, logger });

  try {
    const started = performance.now();
    const cities = loadCities();
    const loadedMs = performance.now() - started;
    const built = buildPlaceIndex(cities);
    const totalMs = performance.now() - started;
    const memory = process.memoryUsage();
    logger.info(
      {
        cities: built.size,
        loadMs: Math.round(loadedMs),
        indexMs: Math.round(totalMs - loadedMs),
        startupMs: Math.round(totalMs),
        heapUsedMB: Math.round(memory.heapUsed / 2 ** 20),
        rssMB: Math.round(memory.rss / 2 ** 20),
      },
      'city index ready',
    );
    ready(built);
  } catch (err) {
    failed(err);
    logger.fatal({ err }, 'could not build the city index');
    await app.close();
    throw err;
  }
});
