import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commonEnv, ConfigError, groupId, groupIds, kafkaEnv, loadConfig } from '../src/config';

const Schema = z.object({ ...commonEnv, ...kafkaEnv, DATABASE_URL: z.url() });

describe('loadConfig', () => {
  it('parses and coerces valid env', () => {
    const config = loadConfig(Schema, {
      PORT: '4001',
      KAFKA_BROKERS: 'a:1, b:2',
      DATABASE_URL: 'postgres://x@y/z',
    });
    expect(config).toEqual({
      PORT: 4001,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      KAFKA_BROKERS: ['a:1', 'b:2'],
      KAFKA_GROUP_PREFIX: '',
      DATABASE_URL: 'postgres://x@y/z',
    });
  });

  it('names every missing and invalid variable', () => {
    let error: unknown;
    try {
      loadConfig(Schema, { PORT: 'eighty', DATABASE_URL: '', LOG_LEVEL: 'loud' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/PORT is invalid/);
    expect(message).toMatch(/KAFKA_BROKERS is missing/);
    expect(message).toMatch(/DATABASE_URL is missing/);
    expect(message).toMatch(/LOG_LEVEL is invalid/);
  });
});

describe('KAFKA_GROUP_PREFIX and groupId', () => {
  const base = { PORT: '1', KAFKA_BROKERS: 'a:1', DATABASE_URL: 'postgres://x@y/z' };

  it('puts the prefix before every group id; none by default (also when empty)', () => {
    expect(groupId(loadConfig(Schema, base), 'journal-trips')).toBe('journal-trips');
    expect(groupId(loadConfig(Schema, { ...base, KAFKA_GROUP_PREFIX: '' }), 'x')).toBe('x');
    const e2e = loadConfig(Schema, { ...base, KAFKA_GROUP_PREFIX: 'e2e-' });
    expect(e2e.KAFKA_GROUP_PREFIX).toBe('e2e-');
    expect(groupId(e2e, 'journal-trips')).toBe('e2e-journal-trips');
  });

  it('refuses a prefix with characters Kafka tools choke on', () => {
    expect(() => loadConfig(Schema, { ...base, KAFKA_GROUP_PREFIX: 'e2e stack/' })).toThrow(
      /KAFKA_GROUP_PREFIX is invalid/,
    );
  });

  it('groupIds gives every consumer of a service its prefixed group id', () => {
    const e2e = loadConfig(Schema, { ...base, KAFKA_GROUP_PREFIX: 'e2e-' });
    expect(groupIds(e2e, { trips: 'journal-trips', friendships: 'journal-friendships' })).toEqual({
      trips: 'e2e-journal-trips',
      friendships: 'e2e-journal-friendships',
    });
  });
});
