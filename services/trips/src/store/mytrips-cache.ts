/**
 * The bodies of `GET /api/mytrips` as answered, in memory, one per owner, each kept under the
 * owner's list version (`ListVersions`) read before the list was: the reader reads the version
 * first and a kept body answers only while it is still that version. Pure: no I/O (the clock
 * is given), so every rule is unit-tested; `usecases/list-my-trips.ts` does the reads.
 *
 * Bounded by the bodies' bytes (least recently used dropped first) and by age: a body older
 * than `ttlMs` is not served (bounds the staleness left by a process that died between a trip
 * write and its version bump, or by an instance that writes without bumping).
 */

export interface MyTripsCacheOptions {
  /** Bound of the bodies and their bookkeeping together, bytes; 0 keeps nothing. */
  maxBytes: number;
  /** A body kept longer than this is not served. */
  ttlMs: number;
  /** Clock in milliseconds (tests). Default: `Date.now`. */
  now?: () => number;
}

export interface MyTripsCacheStats {
  /** Reads answered from the cache. */
  hits: number;
  /** Reads that had to list (nothing kept, another version, or too old). */
  misses: number;
  /** Reads that waited for a list another read of the same owner and version was making. */
  shared: number;
  /** Bodies dropped to stay within the byte bound. */
  evicted: number;
  entries: number;
  bytes: number;
}

/** What is kept: anything with a length in bytes (a Buffer, or the list with its encodings). */
export interface Sized {
  readonly length: number;
}

interface Entry<T> {
  version: number;
  body: T;
  bytes: number;
  expiresAt: number;
}

/** Bookkeeping of an entry (key, Map slot, object) counted on top of its body. */
const ENTRY_OVERHEAD_BYTES = 128;

/** How long a kept list answers at most (see the module's comment). */
export const MYTRIPS_CACHE_TTL_MS = 60_000;

export class MyTripsCache<T extends Sized = Buffer> {
  /** Owner id -> entry, least recently used first (a hit moves its entry last). */
  private readonly entries = new Map<string, Entry<T>>();
  /** Lists being made, by owner and version: concurrent misses share one. */
  private readonly loading = new Map<string, Promise<T>>();
  private bytes = 0;
  private readonly now: () => number;
  private readonly counters = { hits: 0, misses: 0, shared: 0, evicted: 0 };

  constructor(private readonly options: MyTripsCacheOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Whether anything is ever kept (`maxBytes` > 0). */
  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  /**
   * The owner's body kept under `version` (then the most recently used), or undefined: none
   * kept, kept under another version (dropped if older), or too old (dropped).
   */
  get(ownerId: string, version: number): T | undefined {
    const entry = this.entries.get(ownerId);
    if (!entry) return undefined;
    if (entry.version !== version || entry.expiresAt <= this.now()) {
      // a newer body may still be coming back from a slow list: keep that one
      if (entry.version <= version) this.remove(ownerId);
      return undefined;
    }
    this.entries.delete(ownerId);
    this.entries.set(ownerId, entry);
    return entry.body;
  }

  /**
   * Keeps `body` as the owner's list at `version` (the version read before the list was made),
   * unless a body of a newer version is kept already or it does not fit.
   */
  set(ownerId: string, version: number, body: T): boolean {
    const bytes = body.length + ownerId.length + ENTRY_OVERHEAD_BYTES;
    if (bytes > this.options.maxBytes) return false;
    const kept = this.entries.get(ownerId);
    if (kept && kept.version > version) return false;
    if (kept) this.remove(ownerId);
    this.entries.set(ownerId, {
      version,
      body,
      bytes,
      expiresAt: this.now() + this.options.ttlMs,
    });
    this.bytes += bytes;
    for (const [key] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.remove(key);
      this.counters.evicted++;
    }
    return true;
  }

  /**
   * The owner's list at `version`: the kept body (a hit), else `load()`'s, kept under
   * `version`. Concurrent calls for the same owner and version share one `load()`; a failed
   * one is not kept. `version` must have been read before `load()` starts (see the README's
   * "The list's cache").
   */
  async read(ownerId: string, version: number, load: () => Promise<T>): Promise<T> {
    const kept = this.get(ownerId, version);
    if (kept) {
      this.counters.hits++;
      return kept;
    }
    const key = `${version}:${ownerId}`;
    const running = this.loading.get(key);
    if (running) {
      this.counters.shared++;
      return running;
    }
    this.counters.misses++;
    const loaded = (async () => {
      try {
        const body = await load();
        this.set(ownerId, version, body);
        return body;
      } finally {
        this.loading.delete(key);
      }
    })();
    this.loading.set(key, loaded);
    return loaded;
  }

  stats(): MyTripsCacheStats {
    return { ...this.counters, entries: this.entries.size, bytes: this.bytes };
  }

  private remove(ownerId: string): void {
    const entry = this.entries.get(ownerId);
    if (!entry) return;
    this.entries.delete(ownerId);
    this.bytes -= entry.bytes;
  }
}
