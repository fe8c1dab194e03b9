/**
 * The pages of `GET /api/friends` as answered, in memory, kept exact by the notifications of
 * migration `004_friends_changed_notify` (store/friends-pages.ts wires it): each names a user
 * whose friendships, profile or trips changed, and drops every page of theirs and every page
 * that shows them as a friend. Pure: no I/O, so every rule is unit-tested.
 *
 * Races. A page read from PostgreSQL may already be stale when it arrives: a write committed
 * after the query's snapshot whose notification came while the query ran. So a read takes a
 * token before its query (`begin`) and may store its result (`end`) only if
 * - the listener is listening, and has not been lost and found again since the token (epoch),
 * - no notification received since the token named the page's user or one of its friends
 *   (`recent`: subject -> sequence number of its last notification, kept while reads are in
 *   flight, cleared when none are).
 * A write committed after the snapshot notifies after its commit, so its notification either
 * comes before the store (refused) or after it (the stored page is dropped). Lost notifications
 * are the listener's loss: `reset` drops everything and nothing is stored until `listening`.
 */

/** One page as the route answers it. */
export interface FriendsPage {
  /** The JSON text of the page, encoded (what is sent). */
  body: Buffer;
  /** The last friend id when more follow (the next cursor), else null. */
  last: string | null;
}

/** A page with the friends it shows, as the store reads it. */
export interface FriendsPageRead extends FriendsPage {
  friendIds: readonly string[];
}

export interface FriendsPageKey {
  userId: string;
  afterId: string | null;
  limit: number;
}

/** Taken by a read before its query; handed back with its result (`end`). */
export interface ReadToken {
  readonly seq: number;
  readonly epoch: number;
  readonly listening: boolean;
}

export interface FriendsCacheStats {
  hits: number;
  misses: number;
  /** Reads whose result was stored. */
  stored: number;
  /** Reads whose result could not be stored (a notification or a reset raced them). */
  refused: number;
  /** Entries dropped by notifications. */
  invalidated: number;
  /** Entries dropped to stay within the byte bound. */
  evicted: number;
  /** Times the listener was lost (everything dropped). */
  resets: number;
  entries: number;
  bytes: number;
}

interface Entry extends FriendsPage {
  key: string;
  userId: string;
  friendIds: readonly string[];
  bytes: number;
}

/** Bookkeeping of an entry (key, ids, maps) counted on top of its body. */
const ENTRY_OVERHEAD_BYTES = 256;

/** The notification payload that drops everything (TRUNCATE: no row is named). */
export const EVERYONE = '';

const keyOf = (k: FriendsPageKey) => JSON.stringify([k.userId, k.afterId, k.limit]);

export class FriendsCache {
  /** Least recently used first (a Map keeps insertion order; a hit moves its entry last). */
  private readonly entries = new Map<string, Entry>();
  /** User id -> keys of the entries that user owns or shows as a friend. */
  private readonly bySubject = new Map<string, Set<string>>();
  private bytes = 0;
  /** Notifications received so far. */
  private seq = 0;
  /** The seq of the last notification naming everyone. */
  private everyoneSeq = 0;
  /** Bumped when the listener is lost and when it listens again. */
  private epoch = 0;
  private isListening = false;
  private inFlight = 0;
  /** Subject -> seq of its last notification, while reads are in flight. */
  private readonly recent = new Map<string, number>();
  private readonly counters = {
    hits: 0,
    misses: 0,
    stored: 0,
    refused: 0,
    invalidated: 0,
    evicted: 0,
    resets: 0,
  };

  /** `maxBytes`: the bound of the bodies and their bookkeeping together. */
  constructor(readonly maxBytes: number) {}

  /** The stored page (now the most recently used), or undefined. */
  get(key: FriendsPageKey): FriendsPage | undefined {
    const k = keyOf(key);
    const entry = this.entries.get(k);
    if (!entry) {
      this.counters.misses++;
      return undefined;
    }
    this.counters.hits++;
    this.entries.delete(k);
    this.entries.set(k, entry);
    return entry;
  }

  /** Before a read's query. Every token must be handed back to `end`, with or without a page. */
  begin(): ReadToken {
    this.inFlight++;
    return { seq: this.seq, epoch: this.epoch, listening: this.isListening };
  }

  /**
   * After a read's query: stores `page` if nothing it shows changed since `token` (see the
   * module's comment) and it fits; `page` null when the query failed. Returns whether stored.
   */
  end(token: ReadToken, key: FriendsPageKey, page: FriendsPageRead | null): boolean {
    const fresh = page !== null && this.fresh(token, [key.userId, ...page.friendIds]);
    if (--this.inFlight === 0) this.recent.clear();
    if (page === null) return false;
    if (!fresh) {
      this.counters.refused++;
      return false;
    }
    const k = keyOf(key);
    const bytes =
      page.body.length +
      ENTRY_OVERHEAD_BYTES +
      k.length +
      page.friendIds.reduce((n, id) => n + id.length, 0);
    if (bytes > this.maxBytes) return false;
    this.remove(k);
    const entry: Entry = {
      key: k,
      userId: key.userId,
      friendIds: page.friendIds,
      body: page.body,
      last: page.last,
      bytes,
    };
    this.entries.set(k, entry);
    this.bytes += bytes;
    for (const subject of new Set([key.userId, ...page.friendIds])) {
      let keys = this.bySubject.get(subject);
      if (!keys) this.bySubject.set(subject, (keys = new Set()));
      keys.add(k);
    }
    this.counters.stored++;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.remove(oldest);
      this.counters.evicted++;
    }
    return true;
  }

  /**
   * `userId`'s friendships, profile or trips changed: drops their pages and every page showing
   * them ({@link EVERYONE}: every page).
   */
  notify(userId: string): void {
    this.seq++;
    if (userId === EVERYONE) {
      this.everyoneSeq = this.seq;
      this.counters.invalidated += this.entries.size;
      this.clear();
      return;
    }
    if (this.inFlight > 0) this.recent.set(userId, this.seq);
    const keys = this.bySubject.get(userId);
    if (!keys) return;
    for (const k of [...keys]) {
      this.remove(k);
      this.counters.invalidated++;
    }
  }

  /** The listener was lost (notifications may be missed): drops everything, stores nothing. */
  reset(): void {
    this.isListening = false;
    this.epoch++;
    this.counters.resets++;
    this.clear();
  }

  /** The listener listens (again): reads that begin from now on may store. */
  listening(): void {
    this.isListening = true;
    this.epoch++;
    this.clear();
  }

  stats(): FriendsCacheStats {
    return { ...this.counters, entries: this.entries.size, bytes: this.bytes };
  }

  private fresh(token: ReadToken, subjects: readonly string[]): boolean {
    if (!this.isListening || !token.listening || token.epoch !== this.epoch) return false;
    if (this.everyoneSeq > token.seq) return false;
    return subjects.every((s) => (this.recent.get(s) ?? 0) <= token.seq);
  }

  private remove(k: string): void {
    const entry = this.entries.get(k);
    if (!entry) return;
    this.entries.delete(k);
    this.bytes -= entry.bytes;
    for (const subject of [entry.userId, ...entry.friendIds]) {
      const keys = this.bySubject.get(subject);
      keys?.delete(k);
      if (keys?.size === 0) this.bySubject.delete(subject);
    }
  }

  private clear(): void {
    this.entries.clear();
    this.bySubject.clear();
    this.bytes = 0;
  }
}
