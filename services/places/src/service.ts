import {
  composeService,
  createLogger,
  loadIdentityProofSecret,
  type Logger,
} from '@wayfarer/service-kit';
import { buildApp } from './app';
import type { PlacesEnv } from './config';
import type { City } from './domain/city';
import { buildPlaceIndex, type PlaceIndex } from './domain/place-index';
import { loadCities } from './store/cities';

export interface PlacesServiceOptions {
  /** Where the cities come from: default the bundled dataset (`loadCities`); tests pass a few. */
  loadCities?: () => City[];
}

/**
 * places' composition root: the app over a city index that is built once the app listens
 * (so `/healthz` answers at once; `/readyz` and searches answer 503 until it is ready). It has
 * no stores. `indexed` resolves with the index, or rejects when it could not be built (logged
 * as fatal): `main.ts` then exits. `close()` closes the app.
 */
export async function createService(env: PlacesEnv, options: PlacesServiceOptions = {}) {
  const load = options.loadCities ?? (() => loadCities());
  return composeService(async () => {
    const logger = createLogger('places', env.LOG_LEVEL);
    const identityProofSecret = loadIdentityProofSecret(env);
    let build!: () => void;
    const indexed = new Promise<PlaceIndex>((resolve, reject) => {
      build = () => {
        try {
          resolve(buildIndex(load, logger));
        } catch (err) {
          logger.fatal({ err }, 'could not build the city index');
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      };
    });
    indexed.catch(() => undefined); // reported above; `main.ts` awaits it

    const app = buildApp({ logger, index: indexed, identityProofSecret });
    // Listen first, then build (synchronous, about half a second) outside the listen call.
    let started = false;
    app.addHook('onListen', (done) => {
      if (!started) {
        started = true;
        setImmediate(build);
      }
      done();
    });
    return { app, logger, indexed };
  });
}

export type PlacesService = Awaited<ReturnType<typeof createService>>;

function buildIndex(load: () => City[], logger: Logger): PlaceIndex {
  const started = performance.now();
  const cities = load();
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
  return built;
}
