import type { TestInfra } from './infra';

/**
 * Starts the infra as containers (used only where a Docker engine answers). The images are
 * the official ones of docker-compose.yml. Returns the infra and a stop function.
 */
export async function startContainers(): Promise<{ infra: TestInfra; stop: () => Promise<void> }> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const started = await Promise.all([
    new GenericContainer('postgres:15')
      .withEnvironment({ POSTGRES_USER: 'wayfarer', POSTGRES_PASSWORD: 'wayfarer' })
      .withExposedPorts(5432)
      .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
      .start(),
    new GenericContainer('redis:7').withExposedPorts(6379).start(),
    new GenericContainer('minio/minio')
      .withCommand(['server', '/data'])
      .withEnvironment({ MINIO_ROOT_USER: 'wayfarer', MINIO_ROOT_PASSWORD: 'wayfarer-secret' })
      .withExposedPorts(9000)
      .withWaitStrategy(Wait.forHttp('/minio/health/ready', 9000))
      .start(),
    new GenericContainer('mongo:7').withExposedPorts(27017).start(),
  ]);
  const [pg, redis, minio, mongo] = started;
  // Kafka advertises its own address, so it needs a fixed host port.
  const kafkaPort = 59_092;
  const kafka = await new GenericContainer('apache/kafka:3.9.1')
    .withExposedPorts({ container: 9092, host: kafkaPort })
    .withEnvironment({
      KAFKA_NODE_ID: '1',
      KAFKA_PROCESS_ROLES: 'broker,controller',
      KAFKA_LISTENERS: 'PLAINTEXT://:9092,CONTROLLER://:9093',
      KAFKA_ADVERTISED_LISTENERS: `PLAINTEXT://127.0.0.1:${kafkaPort}`,
      KAFKA_CONTROLLER_LISTENER_NAMES: 'CONTROLLER',
      KAFKA_LISTENER_SECURITY_PROTOCOL_MAP: 'CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT',
      KAFKA_CONTROLLER_QUORUM_VOTERS: '1@localhost:9093',
      KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: '1',
      KAFKA_TRANSACTION_STATE_LOG_MIN_ISR: '1',
      KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS: '0',
    })
    .withWaitStrategy(Wait.forLogMessage(/Kafka Server started/))
    .start();
  const host = (c: { getHost(): string }) => c.getHost();
  const infra: TestInfra = {
    pgUrl: `postgres://wayfarer:wayfarer@${host(pg!)}:${pg!.getMappedPort(5432)}/postgres`,
    redisUrl: `redis://${host(redis!)}:${redis!.getMappedPort(6379)}`,
    kafkaBrokers: [`127.0.0.1:${kafkaPort}`],
    s3: {
      endpoint: `http://${host(minio!)}:${minio!.getMappedPort(9000)}`,
      accessKey: 'wayfarer',
      secretKey: 'wayfarer-secret',
    },
    mongoUrl: `mongodb://${host(mongo!)}:${mongo!.getMappedPort(27017)}/?directConnection=true`,
    mode: 'containers',
  };
  return {
    infra,
    stop: async () => {
      await Promise.all([...started, kafka].map((c) => c.stop()));
    },
  };
}

/** The env variables that describe `infra` (what deploy/local's env file holds). */
export function infraEnv(infra: TestInfra): Record<string, string> {
  return {
    PG_URL: infra.pgUrl,
    REDIS_URL: infra.redisUrl,
    KAFKA_BROKERS: infra.kafkaBrokers.join(','),
    S3_ENDPOINT: infra.s3.endpoint,
    S3_ACCESS_KEY: infra.s3.accessKey,
    S3_SECRET_KEY: infra.s3.secretKey,
    MONGO_URL: infra.mongoUrl,
    WAYFARER_INFRA: infra.mode,
  };
}
