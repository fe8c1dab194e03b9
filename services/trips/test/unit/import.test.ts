import { describe, expect, it } from 'vitest';
import { ImportLimits, ImportMessages, TripLimits } from '@wayfarer/contracts';
import { ImportLimitError } from '../../src/domain/errors';
import { entryProblem } from '../../src/domain/import/archive';
import { fileKind } from '../../src/domain/import/detect';
import type { DraftPlace, ImportDraft } from '../../src/domain/import/draft';
import { planImport } from '../../src/domain/import/plan';
import { cleanLine, cleanMultiline, htmlToText } from '../../src/domain/import/text';

const TODAY = '2026-01-15';

describe('the plan', () => {
  const place = (i: number, photos = 0, bytes = 1000): DraftPlace => ({
    name: `Stop ${i}`,
    latitude: 10,
    longitude: 20,
    startDate: `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
    story: '',
    photos: Array.from({ length: photos }, (_, p) => ({ entry: `p${i}-${p}.jpg`, bytes })),
  });
  const draft = (places: DraftPlace[], name = 'Long trip'): ImportDraft => ({
    format: 'geojson',
    trips: [{ name, places }],
    skippedPlaces: 0,
  });

  it('splits a trip over the destination limit into named parts', () => {
    const plan = planImport(draft(Array.from({ length: 45 }, (_, i) => place(i))), TODAY);
    expect(plan.trips.map((t) => [t.input.name, t.input.destinations.length])).toEqual([
      ['Long trip (1/3)', 20],
      ['Long trip (2/3)', 20],
      ['Long trip (3/3)', 5],
    ]);
  });

  it('splits by photos too, and skips photos over a destination’s count or the size limit', () => {
    const places = Array.from({ length: 5 }, (_, i) => place(i, 12));
    places[0]!.photos.push({ entry: 'huge.jpg', bytes: TripLimits.photoMaxBytes + 1 });
    const plan = planImport(draft(places), TODAY);
    // 10 kept per destination (3 over: 2 by count, plus the huge one); 40 a trip
    expect(plan.trips.map((t) => t.photos.length)).toEqual([40, 10]);
    expect(plan.skipped.photos).toBe(5 * 2 + 1);
    const big = planImport(
      draft(Array.from({ length: 3 }, (_, i) => place(i, 10, 4 * 1024 * 1024))),
      TODAY,
    );
    // 100 MB a trip: 2 destinations of 40 MB fit, the third starts another part
    expect(big.trips.map((t) => t.photos.length)).toEqual([20, 10]);
  });

  it('cleans and cuts text, names nameless places, skips places without coordinates', () => {
    const plan = planImport(
      draft(
        [
          { ...place(0), name: 'Ber\u0000lin\n', story: 'x'.repeat(TripLimits.storyMax + 50) },
          { ...place(1), name: '  ' },
          { ...place(2), latitude: 91 },
          { ...place(3), longitude: Number.NaN },
          { ...place(4), startDate: '2024-02-10', endDate: '2024-02-01' },
        ],
        'n'.repeat(500),
      ),
      TODAY,
    );
    const { input } = plan.trips[0]!;
    expect(input.name).toHaveLength(TripLimits.nameMax);
    expect(input.destinations.map((d) => d.name)).toEqual(['Ber lin', 'Place 2', 'Stop 4']);
    expect(input.destinations[0]!.story).toHaveLength(TripLimits.storyMax);
    expect(input.destinations[2]).toMatchObject({ startDate: '2024-02-10', endDate: '2024-02-10' });
    expect(plan.skipped.destinations).toBe(2);
  });

  it('refuses a file with nothing to import, and one past ImportLimits.tripsMax trips', () => {
    expect(() => planImport(draft([{ ...place(0), latitude: 200 }]), TODAY)).toThrow(
      ImportMessages.nothingToImport,
    );
    const many: ImportDraft = {
      format: 'polarsteps',
      trips: Array.from({ length: ImportLimits.tripsMax + 3 }, (_, i) => ({
        name: `T${i}`,
        places: [place(i)],
      })),
      skippedPlaces: 0,
    };
    // refused, naming the limit (it used to make the first tripsMax and skip the rest)
    expect(() => planImport(many, TODAY)).toThrow(ImportMessages.tooManyTrips);
    expect(() => planImport(many, TODAY)).toThrow(ImportLimitError);
    // exactly at the limit: all made
    const plan = planImport({ ...many, trips: many.trips.slice(0, ImportLimits.tripsMax) }, TODAY);
    expect(plan.trips).toHaveLength(ImportLimits.tripsMax);
    expect(plan.skipped.trips).toBe(0);
  });
});

describe('text and bytes', () => {
  it('makes plain text: control characters and lone surrogates out, pairs never cut in half', () => {
    expect(cleanLine('a\tb\u007fc', 10)).toBe('a b c');
    expect(cleanLine('ab😀', 3)).toBe('ab');
    expect(cleanMultiline('one\r\ntwo\u0001\ud800', 100)).toBe('one\ntwo');
    expect(htmlToText('a<br/>b &lt;c&gt; &#233;')).toBe('a\nb <c> é');
  });

  it('tells a ZIP, XML and JSON apart by their first bytes', () => {
    expect(fileKind(Buffer.from('PK\u0003\u0004rest'))).toBe('zip');
    expect(fileKind(Buffer.from('\ufeff\n  <?xml version="1.0"?>'))).toBe('xml');
    expect(fileKind(Buffer.from(' {"type":'))).toBe('json');
    expect(fileKind(Buffer.from('hello, a text file'))).toBeNull();
    expect(fileKind(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBeNull();
  });

  it('refuses unsafe ZIP entries: traversal, absolute, backslash, symlink, bomb ratio', () => {
    const ok = {
      name: 'trip/a/trip.json',
      mode: 0o100644,
      compressedBytes: 100,
      uncompressedBytes: 900,
      encrypted: false,
    };
    expect(entryProblem(ok)).toBeNull();
    expect(entryProblem({ ...ok, name: '../evil' })).toMatch(/outside the archive/);
    expect(entryProblem({ ...ok, name: 'a/../../evil' })).toMatch(/outside the archive/);
    expect(entryProblem({ ...ok, name: '/etc/passwd' })).toMatch(/absolute/);
    expect(entryProblem({ ...ok, name: 'C:/x' })).toMatch(/absolute/);
    expect(entryProblem({ ...ok, name: 'a\\..\\b' })).toMatch(/backslash/);
    expect(entryProblem({ ...ok, mode: 0o120777 })).toMatch(/symbolic link/);
    expect(entryProblem({ ...ok, encrypted: true })).toMatch(/encrypted/);
    expect(
      entryProblem({ ...ok, compressedBytes: 1024 * 1024, uncompressedBytes: 1000 * 1024 * 1024 }),
    ).toMatch(/ZIP bomb/);
    // a small, very compressible file (a JSON of repeated keys) is fine
    expect(entryProblem({ ...ok, compressedBytes: 10, uncompressedBytes: 100_000 })).toBeNull();
  });
});
