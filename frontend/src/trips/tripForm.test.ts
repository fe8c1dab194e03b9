import { storyPreview, TripDateMessages, TripLimits } from '@wayfarer/contracts';
import { describe, expect, it } from 'vitest';
import {
  adjustRange,
  buildTripFormData,
  checkPhotos,
  formatBytes,
  isSupportedPhoto,
  localDateString,
  tripFormEntries,
  tripDateProblem,
  tripPhotoBytes,
  tripUploadProblem,
  type PhotoLike,
  type TripDraft,
} from './tripForm';

const photo = (name: string, type = 'image/png', size = 1000): PhotoLike => ({ name, type, size });

const draft: TripDraft<PhotoLike> = {
  name: '  Summer in Europe ',
  startDate: '2025-06-01',
  endDate: '2025-06-14',
  destinations: [
    {
      key: 'a',
      name: 'Paris, France',
      latitude: 48.85341,
      longitude: 2.3488,
      startDate: '2025-06-01',
      endDate: '2025-06-05',
      story: 'Croissants.',
      photos: [photo('eiffel.png'), photo('louvre.jpg', 'image/jpeg')],
    },
    {
      key: 'b',
      name: 'Rome, Italy',
      latitude: 41.89193,
      longitude: 12.51133,
      startDate: '2025-06-06',
      endDate: '2025-06-14',
      story: '',
      photos: [],
    },
  ],
};

describe('the POST /api/trips multipart body', () => {
  it('names every field exactly as the spec row, photos under photos[i]', () => {
    const entries = tripFormEntries(draft);
    expect(
      entries.map(([name, value]) => [name, typeof value === 'string' ? value : value.name]),
    ).toEqual([
      ['name', 'Summer in Europe'],
      ['startDate', '2025-06-01'],
      ['endDate', '2025-06-14'],
      ['destinations[0][name]', 'Paris, France'],
      ['destinations[0][startDate]', '2025-06-01'],
      ['destinations[0][endDate]', '2025-06-05'],
      ['destinations[0][latitude]', '48.85341'],
      ['destinations[0][longitude]', '2.3488'],
      ['destinations[0][story]', 'Croissants.'],
      ['photos[0]', 'eiffel.png'],
      ['photos[0]', 'louvre.jpg'],
      ['destinations[1][name]', 'Rome, Italy'],
      ['destinations[1][startDate]', '2025-06-06'],
      ['destinations[1][endDate]', '2025-06-14'],
      ['destinations[1][latitude]', '41.89193'],
      ['destinations[1][longitude]', '12.51133'],
      ['destinations[1][story]', ''],
    ]);
  });

  it('a trip without destinations sends only its name and dates', () => {
    expect(tripFormEntries({ ...draft, destinations: [] }).map(([n]) => n)).toEqual([
      'name',
      'startDate',
      'endDate',
    ]);
  });

  it('sends a private trip as the field `visibility` after the dates; friends is left out', () => {
    expect(
      tripFormEntries({ ...draft, destinations: [], visibility: 'friends' }).map(([n]) => n),
    ).toEqual(['name', 'startDate', 'endDate']);
    const entries = tripFormEntries({ ...draft, destinations: [], visibility: 'private' });
    expect(entries).toEqual([
      ['name', 'Summer in Europe'],
      ['startDate', '2025-06-01'],
      ['endDate', '2025-06-14'],
      ['visibility', 'private'],
    ]);
  });

  it('builds a FormData with the files as file parts', async () => {
    const files = [new File([new Uint8Array([1, 2, 3])], 'a.png', { type: 'image/png' })];
    const form = buildTripFormData({
      ...draft,
      destinations: [{ ...draft.destinations[0]!, photos: files }],
    });
    expect(form.get('destinations[0][name]')).toBe('Paris, France');
    const parts = form.getAll('photos[0]');
    expect(parts).toHaveLength(1);
    expect(parts[0]).toBeInstanceOf(File);
    expect((parts[0] as File).name).toBe('a.png');
    expect((parts[0] as File).size).toBe(3);
    expect(form.has('photos[1]')).toBe(false);
  });
});

describe('photo checks (TripLimits)', () => {
  it('accepts the four decodable image types, by MIME type or extension', () => {
    expect(isSupportedPhoto(photo('a.png'))).toBe(true);
    expect(isSupportedPhoto(photo('a.webp', 'image/webp'))).toBe(true);
    expect(isSupportedPhoto(photo('a.gif', 'image/gif'))).toBe(true);
    expect(isSupportedPhoto(photo('a.JPG', ''))).toBe(true);
    expect(isSupportedPhoto(photo('a.svg', 'image/svg+xml'))).toBe(false);
    expect(isSupportedPhoto(photo('a.heic', 'image/heic'))).toBe(false);
    expect(isSupportedPhoto(photo('notes.txt', 'text/plain'))).toBe(false);
    expect(isSupportedPhoto(photo('noext', ''))).toBe(false);
  });

  it('refuses other types, empty files and files over 15 MB, with a message each', () => {
    const { accepted, problems } = checkPhotos(
      [
        photo('ok.png'),
        photo('doc.pdf', 'application/pdf'),
        photo('empty.png', 'image/png', 0),
        photo('huge.jpg', 'image/jpeg', TripLimits.photoMaxBytes + 1),
        photo('edge.jpg', 'image/jpeg', TripLimits.photoMaxBytes),
      ],
      0,
      0,
    );
    expect(accepted.map((p) => p.name)).toEqual(['ok.png', 'edge.jpg']);
    expect(problems).toEqual([
      'doc.pdf is not a JPEG, PNG, WebP or GIF image.',
      'empty.png is empty.',
      'huge.jpg is too large: each photo must be at most 15 MB.',
    ]);
  });

  it('keeps at most 10 per destination and 40 per trip', () => {
    const twelve = Array.from({ length: 12 }, (_, i) => photo(`p${i}.png`));
    const perDestination = checkPhotos(twelve, 3, 3);
    expect(perDestination.accepted).toHaveLength(TripLimits.photosPerDestinationMax - 3);
    expect(perDestination.problems).toEqual([
      '5 photos were left out: at most 10 photos per destination.',
    ]);
    const perTrip = checkPhotos(twelve.slice(0, 4), 0, TripLimits.photosPerTripMax - 1);
    expect(perTrip.accepted).toHaveLength(1);
    expect(perTrip.problems).toEqual(['3 photos were left out: at most 40 photos per trip.']);
  });

  it("keeps a trip's photos within 100 MB in all, saying how much is chosen", () => {
    const MB = 1024 * 1024;
    expect(TripLimits.photosTotalMaxBytes).toBe(100 * MB);
    const big = (name: string) => photo(name, 'image/jpeg', TripLimits.photoMaxBytes); // 15 MB
    // 90 MB already in the trip: one 10 MB photo still fits exactly, a 15 MB one does not
    const already = 90 * MB;
    const exact = checkPhotos([photo('ten.jpg', 'image/jpeg', 10 * MB)], 0, 6, already);
    expect(exact).toEqual({ accepted: [photo('ten.jpg', 'image/jpeg', 10 * MB)], problems: [] });
    const over = checkPhotos([big('a.jpg'), photo('small.jpg', 'image/jpeg', MB)], 0, 6, already);
    expect(over.accepted.map((p) => p.name)).toEqual(['small.jpg']);
    expect(over.problems).toEqual([
      "1 photo was left out: a trip's photos may total at most 100 MB (91 MB chosen).",
    ]);
  });

  it('checks the whole trip before it is sent: count, size of each and total', () => {
    const MB = 1024 * 1024;
    const dest = (photos: PhotoLike[]) => ({ ...draft.destinations[0]!, photos });
    const jpeg = (size: number, i = 0) => photo(`p${i}.jpg`, 'image/jpeg', size);
    // the largest trip the contracts allow: 100 MB exactly, within the per-photo limit
    const largest = [
      dest(Array.from({ length: 6 }, (_, i) => jpeg(TripLimits.photoMaxBytes, i))),
      dest([jpeg(TripLimits.photosTotalMaxBytes - 6 * TripLimits.photoMaxBytes)]),
    ];
    expect(tripUploadProblem({ destinations: largest })).toBeNull();
    const oneByteMore = [...largest, dest([jpeg(1, 99)])];
    expect(tripUploadProblem({ destinations: oneByteMore })).toBe(
      "This trip's photos are too large to send: a trip's photos may total at most 100 MB, and these total 100 MB. Remove some photos and try again.",
    );
    expect(tripUploadProblem({ destinations: [dest([jpeg(TripLimits.photoMaxBytes + 1)])] })).toBe(
      'p0.jpg is too large: each photo must be at most 15 MB.',
    );
    const eleven = Array.from({ length: 11 }, (_, i) => jpeg(MB, i));
    expect(tripUploadProblem({ destinations: [dest(eleven)] })).toBe(
      'Too many photos: at most 10 photos per destination.',
    );
    const fortyOne = Array.from({ length: 5 }, () =>
      dest(Array.from({ length: 9 }, (_, i) => jpeg(MB, i))),
    );
    expect(tripUploadProblem({ destinations: fortyOne })).toBe(
      'Too many photos: at most 40 photos per trip.',
    );
    expect(tripPhotoBytes({ destinations: largest })).toBe(TripLimits.photosTotalMaxBytes);
  });

  it('formats sizes shortly', () => {
    expect(formatBytes(900)).toBe('900 B');
    expect(formatBytes(2048)).toBe('2 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3 MB');
    expect(formatBytes(3.45 * 1024 * 1024)).toBe('3.5 MB');
  });
});

describe('dates of the form', () => {
  it("today is the user's calendar day as YYYY-MM-DD", () => {
    expect(localDateString(new Date(2025, 0, 5, 23, 59))).toBe('2025-01-05');
    expect(localDateString(new Date(2024, 11, 31, 0, 0))).toBe('2024-12-31');
  });

  it('moving the start past the end moves the end with it, and back', () => {
    const range = { startDate: '2025-06-01', endDate: '2025-06-05' };
    expect(adjustRange(range, 'startDate', '2025-06-03')).toEqual({
      startDate: '2025-06-03',
      endDate: '2025-06-05',
    });
    expect(adjustRange(range, 'startDate', '2025-06-09')).toEqual({
      startDate: '2025-06-09',
      endDate: '2025-06-09',
    });
    expect(adjustRange(range, 'endDate', '2025-05-20')).toEqual({
      startDate: '2025-05-20',
      endDate: '2025-05-20',
    });
    expect(adjustRange(range, 'endDate', '')).toEqual({ startDate: '2025-06-01', endDate: '' });
  });
});

describe('story preview (contracts)', () => {
  it('cuts at 100 characters with "..." and leaves short stories alone', () => {
    const long = 'a'.repeat(150);
    expect(storyPreview(long)).toBe(`${'a'.repeat(100)}...`);
    expect(storyPreview('a'.repeat(100))).toBe('a'.repeat(100));
    expect(storyPreview('Short story.')).toBe('Short story.');
    // characters, not UTF-16 units: an emoji is not split in half
    expect(storyPreview('😀'.repeat(101))).toBe(`${'😀'.repeat(100)}...`);
  });
});

describe('tripDateProblem (what the trips service refuses, said before sending)', () => {
  const today = '2025-06-10';

  it('takes the draft as it is: every range ends on or after its start', () => {
    expect(tripDateProblem(draft, today)).toBeNull();
    expect(tripDateProblem({ ...draft, endDate: draft.startDate }, today)).toBeNull();
  });

  it("refuses a trip that ends before it starts, in the service's words", () => {
    expect(tripDateProblem({ ...draft, endDate: '2025-05-31' }, today)).toBe(
      TripDateMessages.endBeforeStart,
    );
    // an emptied start is today for the service: an end before today is refused too
    expect(tripDateProblem({ ...draft, startDate: '', endDate: '2025-06-09' }, today)).toBe(
      TripDateMessages.endBeforeStart,
    );
  });

  it('names the destination that ends before it starts', () => {
    const [paris, ...rest] = draft.destinations;
    const reversed = { ...paris!, startDate: '2025-06-05', endDate: '2025-06-04' };
    expect(tripDateProblem({ ...draft, destinations: [reversed, ...rest] }, today)).toBe(
      `Paris, France: ${TripDateMessages.endBeforeStart}`,
    );
    // a destination's empty dates are the trip's
    const blank = { ...paris!, startDate: '', endDate: '' };
    expect(tripDateProblem({ ...draft, destinations: [blank] }, today)).toBeNull();
  });
});
