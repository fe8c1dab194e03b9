import { describe, expect, it } from 'vitest';
import { ConfigError, groupId, loadConfig } from '@wayfarer/service-kit';
import { JournalEnv } from '../../src/config';
import { CONSUMERS } from '../../src/events/consumers';

describe('JournalEnv', () => {
  it('has safe defaults for port, host and database', () => {
    const env = loadConfig(JournalEnv, {
      MONGO_URL: 'mongodb://x',
      KAFKA_BROKERS: 'a:1, b:2',
      REDIS_URL: 'redis://x',
    });
    expect(env).toMatchObject({
      PORT: 4005,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      MONGO_DB: 'journal',
      KAFKA_BROKERS: ['a:1', 'b:2'],
      KAFKA_GROUP_PREFIX: '',
    });
  });
  it('takes the consumer group prefix of the stack', () => {
    const env = loadConfig(JournalEnv, {
      MONGO_URL: 'mongodb://x',
      KAFKA_BROKERS: 'a:1',
      REDIS_URL: 'redis://x',
      KAFKA_GROUP_PREFIX: 'e2e-',
    });
    expect(groupId(env, CONSUMERS.trips)).toBe('e2e-journal-trips');
  });
  it('names every missing variable', () => {
    expect(() => loadConfig(JournalEnv, {})).toThrow(ConfigError);
    expect(() => loadConfig(JournalEnv, {})).toThrow(/MONGO_URL[\s\S]*KAFKA_BROKERS/);
  });
});
