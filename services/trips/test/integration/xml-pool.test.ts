import { afterEach, describe, expect, it } from 'vitest';
import { ImportMessages } from '@wayfarer/contracts';
import { createLogger } from '@wayfarer/service-kit';
import { InvalidTripError } from '../../src/domain/errors';
import { XmlDraftPool, type XmlDraftPoolOptions } from '../../src/workers/xml-pool';
import { trackGpx } from '../fixtures';

// The import's XML worker thread on its own (the import through it: import.test.ts).

const logger = createLogger('trips', 'silent');
const pools: XmlDraftPool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.close()));
});

function pool(options: Partial<XmlDraftPoolOptions> = {}): XmlDraftPool {
  const made = new XmlDraftPool({ timeoutMs: 60_000, logger, ...options });
  pools.push(made);
  return made;
}

/** A day of track: one destination. */
const small = () => trackGpx(10);
/** ~3.5 MiB: a DOM of some 200 MB, seconds of parse. */
const large = () => trackGpx(42_000);

const refusedAs = async (draft: Promise<unknown>, message: string) => {
  const err = await draft.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidTripError);
  expect((err as Error).message).toBe(message);
};

describe('XmlDraftPool', () => {
  it('reads GPX files one after the other in its thread, in the order given', async () => {
    const xml = pool();
    const drafts = await Promise.all([
      xml.draft(small(), 'a.gpx'),
      xml.draft(Buffer.from('<gpx><wpt lat="1" lon="2"><name>B</name></wpt></gpx>'), 'b.gpx'),
    ]);
    expect(drafts.map((d) => d.format)).toEqual(['gpx', 'gpx']);
    expect(drafts[0]!.trips[0]!.name).toBe('a');
    expect(drafts[1]!.trips[0]!.places.map((p) => p.name)).toEqual(['B']);
  });

  it('a refusal inside the thread keeps its text (a 400), and the thread reads the next file', async () => {
    const xml = pool();
    await refusedAs(xml.draft(Buffer.from('<gpx><wpt></gpx>'), 'bad.gpx'), ImportMessages.badXml);
    await refusedAs(
      xml.draft(Buffer.from('<!DOCTYPE gpx><gpx/>'), 'd.gpx'),
      ImportMessages.xmlDeclarations,
    );
    expect((await xml.draft(small(), 'ok.gpx')).trips).toHaveLength(1);
  });

  it('a parse past its timeout: the thread is stopped (a 400), a new one reads the next file', async () => {
    // the large file's parse is seconds long, 20 times the timeout at least
    const xml = pool({ timeoutMs: 100 });
    await refusedAs(xml.draft(large(), 'large.gpx'), ImportMessages.xmlTooHeavy);
    expect((await xml.draft(small(), 'ok.gpx')).trips).toHaveLength(1);
  });

  it('a parse past the thread heap: the thread is stopped (a 400), a new one reads the next file', async () => {
    const xml = pool({ heapMb: 32 });
    await refusedAs(xml.draft(large(), 'large.gpx'), ImportMessages.xmlTooHeavy);
    expect((await xml.draft(small(), 'ok.gpx')).trips).toHaveLength(1);
  });

  it('closed: what is queued fails, nothing new is taken', async () => {
    const xml = pool();
    const failed = Promise.all([
      expect(xml.draft(large(), 'large.gpx')).rejects.toThrow(/closed/),
      expect(xml.draft(small(), 'small.gpx')).rejects.toThrow(/closed/),
    ]);
    await xml.close();
    await failed;
    await expect(xml.draft(small(), 'late.gpx')).rejects.toThrow(/closed/);
  });
});
