/**
 * Real faults for tests: a redis-server and a Kafka broker of the test's own that it crashes
 * and starts again (the redis-server also freezes), and a TCP proxy that cuts a client off a
 * server that keeps running for everyone else.
 */
export { KafkaServer, kafkaLibsDir, startKafkaServer } from './faults/kafka-server';
export { freePort } from './faults/process';
export { RedisServer, startRedisServer, type RedisServerOptions } from './faults/redis-server';
export { TcpProxy, startTcpProxy, type ProxyTarget } from './faults/tcp-proxy';
