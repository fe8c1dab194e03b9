import { gauge } from './metrics';

/**
 * `wayfarer_dependency_up{dependency}`: 1 when every check of that dependency in this process
 * passed when scraped, else 0; one series per dependency the process has (`postgres`, `mongo`,
 * `redis`, `kafka`, `s3`). Stores report through their `/readyz` checks (`createHttpApp` maps
 * their names: `DEPENDENCY_OF_CHECK`); Kafka through the outbox relay (its last send) and the
 * consumers (a fetch answered within the last 10 s).
 */
export type DependencyCheck = () => boolean | Promise<boolean>;

/** The dependency a readiness check's name stands for (checks of anything else are not one). */
export const DEPENDENCY_OF_CHECK: Readonly<Record<string, string>> = {
  postgres: 'postgres',
  mongo: 'mongo',
  redis: 'redis',
  kafka: 'kafka',
  minio: 's3',
  s3: 's3',
};

/** How long a scrape waits for a check: one that takes longer counts as down. */
const CHECK_TIMEOUT_MS = 2000;

const checks = new Set<{ dependency: string; check: DependencyCheck }>();
let exported = false;

/** Adds a check of `dependency`; returns the function that removes it. */
export function reportDependency(dependency: string, check: DependencyCheck): () => void {
  exportGauge();
  const entry = { dependency, check };
  checks.add(entry);
  return () => checks.delete(entry);
}

async function passes(check: DependencyCheck): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.resolve().then(check),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

function exportGauge(): void {
  if (exported) return;
  exported = true;
  gauge({
    name: 'wayfarer_dependency_up',
    help: 'Whether a dependency answered its last check (1) or not (0), per dependency',
    labelNames: ['dependency'] as const,
    async collect() {
      const results = await Promise.all(
        [...checks].map(async ({ dependency, check }) => ({ dependency, ok: await passes(check) })),
      );
      const up = new Map<string, boolean>();
      for (const { dependency, ok } of results)
        up.set(dependency, (up.get(dependency) ?? true) && ok);
      this.reset();
      for (const [dependency, ok] of up) this.set({ dependency }, ok ? 1 : 0);
    },
  });
}
