import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { infoLineWriter, loggerOptions } from '../src/logger';

function capture(level = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      callback();
    },
  });
  return { lines, logger: pino(loggerOptions('gateway', level), stream) };
}

describe('infoLineWriter (the hot-path line: pino JSON built by hand)', () => {
  const fields = {
    reqId: 'r-1',
    method: 'GET',
    path: '/api/trips/"quoted"\\back\nline',
    status: 200,
    upstream: 'trips',
    upstreamMs: 1.5,
    ms: 2.25,
  };

  it('writes the line pino would write for the same fields, in one JSON line', async () => {
    const ours = capture();
    const theirs = capture();
    infoLineWriter(ours.logger, 'request')(fields);
    theirs.logger.info(fields, 'request');
    await new Promise((resolve) => setImmediate(resolve));
    expect(ours.lines).toHaveLength(1);
    const mine = JSON.parse(ours.lines[0]!) as Record<string, unknown>;
    const pinos = JSON.parse(theirs.lines[0]!) as Record<string, unknown>;
    expect(typeof mine.time).toBe('string');
    expect(new Date(mine.time as string).toISOString()).toBe(mine.time);
    expect({ ...mine, time: 0 }).toEqual({ ...pinos, time: 0 });
    expect(Object.keys(mine)).toEqual(Object.keys(pinos));
  });

  it('leaves out undefined fields, writes non-finite numbers as null', async () => {
    const { lines, logger } = capture();
    infoLineWriter(logger, 'request')({ status: 502, upstream: undefined, ms: Number.NaN });
    await new Promise((resolve) => setImmediate(resolve));
    const line = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(line).toMatchObject({ level: 30, service: 'gateway', status: 502, ms: null });
    expect('upstream' in line).toBe(false);
  });

  it('writes nothing while the level is above info, and again once it is info', async () => {
    const { lines, logger } = capture('warn');
    const write = infoLineWriter(logger, 'request');
    write({ status: 200 });
    logger.level = 'info';
    write({ status: 201 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(lines.map((l) => (JSON.parse(l) as { status: number }).status)).toEqual([201]);
  });
});
