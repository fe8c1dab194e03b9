import { z } from 'zod';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads and validates environment variables against `schema` (keys are variable names).
 * Throws a ConfigError that names every missing or invalid variable.
 */
export function loadConfig<S extends z.ZodObject>(
  schema: S,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<S> {
  const picked: Record<string, string | undefined> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    picked[key] = value === '' ? undefined : value;
  }
  const result = schema.safeParse(picked);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = issue.path.join('.');
    return picked[name] === undefined
      ? `${name} is missing (${issue.message})`
      : `${name} is invalid: ${issue.message}`;
  });
  throw new ConfigError(problems);
}

/** Common env fields, to spread into a service's schema. */
export const commonEnv = {
  PORT: z.coerce.number().int().min(1).max(65535),
  HOST: z.string().default('127.0.0.1'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
};

export const kafkaEnv = {
  KAFKA_BROKERS: z
    .string()
    .min(1)
    .transform((s) =>
      s
        .split(',')
        .map((b) => b.trim())
        .filter(Boolean),
    ),
  /**
   * Put before every consumer group id (`groupId()`), so a test stack (e.g. `e2e-`) never
   * shares consumer groups with the dev stack on the same Kafka. Default: none.
   */
  KAFKA_GROUP_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9._-]{0,100}$/, 'may only hold letters, digits, ".", "_" and "-"')
    .default(''),
  /** How often the outbox relay looks for pending events besides being kicked (default 250). */
  OUTBOX_POLL_MS: z.coerce.number().int().min(10).max(60_000).optional(),
};

/** A consumer group id: the service's group `name` behind the stack's KAFKA_GROUP_PREFIX. */
export function groupId(config: { KAFKA_GROUP_PREFIX: string }, name: string): string {
  return `${config.KAFKA_GROUP_PREFIX}${name}`;
}

/** The consumer group ids of a service's consumers (`names`: key to group name), as `groupId`. */
export function groupIds<K extends string>(
  config: { KAFKA_GROUP_PREFIX: string },
  names: Readonly<Record<K, string>>,
): Record<K, string> {
  const ids = {} as Record<K, string>;
  for (const key of Object.keys(names) as K[]) ids[key] = groupId(config, names[key]);
  return ids;
}
