import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** Tracing is on when an OTLP endpoint is set (and `OTEL_SDK_DISABLED` does not turn it off). */
export function tracingConfigured(env: NodeJS.ProcessEnv): boolean {
  const endpoint = env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  return Boolean(endpoint) && env.OTEL_SDK_DISABLED?.toLowerCase() !== 'true';
}

/** The attribute of a request's span that holds its request id (`x-request-id`, the logs'). */
export const REQUEST_ID_ATTRIBUTE = 'wayfarer.request_id';

/** Paths no probe or scrape should trace (answered by every process, many times a minute). */
export const UNTRACED_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz', '/metrics']);

/** Whether a request URL (with or without a query) is a probe or a scrape. */
export function isUntracedUrl(url: string | undefined): boolean {
  if (!url) return false;
  const q = url.indexOf('?');
  return UNTRACED_PATHS.has(q === -1 ? url : url.slice(0, q));
}

/**
 * The process's service name when `OTEL_SERVICE_NAME` is not set: the name of the package
 * that holds the entry script (`services/trips/src/main.ts` -> `@wayfarer/trips` -> `trips`),
 * the same whether the entry is a source run by tsx or a compiled file. Falls back to the
 * entry's file name.
 */
export function serviceNameOf(entry: string | undefined): string {
  if (!entry) return 'unknown_service:node';
  let dir = dirname(entry);
  for (let i = 0; i < 6; i++) {
    try {
      const { name } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {
        name?: string;
      };
      if (name) return name.replace(/^@wayfarer\//, '');
    } catch {
      /* no package.json here: look further up */
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return entry.replace(/^.*[\\/]/, '').replace(/\.[cm]?[jt]s$/, '');
}
