import {
  type City,
  compareRank,
  compareText,
  type KeyedCity,
  type PlaceSearch,
  SEARCH_LIMITS,
  WORD_MATCH_DIVISOR,
} from './city';
import { CountryMatcher } from './countries';
import { normalise } from './normalise';
import { planQuery } from './query';

/**
 * In-memory place search over a city list. Pure: built once from the data, then read only.
 *
 * Cities are sorted once in rank order (population descending, then normalised name, name, id),
 * so a city is known by its rank and "better" simply means "smaller rank". Two sorted key lists:
 * - `full`: each city's whole normalised name ("new york city");
 * - `words`: the rest of the name from each later word on ("york city", "city").
 * A query is a prefix: binary search gives the contiguous range of keys starting with it, and a
 * min-segment tree over the ranks gives the k best cities of that range in O(k log n), whatever
 * the range size (one letter matches ~10,000 names). The best k of each list are then merged,
 * a later-word match counting a tenth of its population (WORD_MATCH_DIVISOR).
 */
export class PlaceIndex implements PlaceSearch {
  private readonly byRank: readonly City[];
  private readonly full: KeyList;
  private readonly words: KeyList;
  private readonly countries: CountryMatcher;

  constructor(cities: readonly City[]) {
    // Sorting typed arrays of positions is faster here than sorting arrays of objects.
    const keyed: KeyedCity[] = cities
      .map((city) => ({ city, key: normalise(city.name) }))
      .filter((c) => c.key.length > 0); // a name of symbols only could never be found
    const order = Uint32Array.from(keyed.keys()).sort((a, b) => compareRank(keyed[a]!, keyed[b]!));
    const ranked = Array.from(order, (i) => keyed[i]!);
    this.byRank = ranked.map((c) => c.city);

    const fullKeys: string[] = [];
    const wordKeys: string[] = [];
    const wordRanks: number[] = [];
    ranked.forEach(({ key }, rank) => {
      fullKeys.push(key);
      for (let i = key.indexOf(' '); i >= 0; i = key.indexOf(' ', i + 1)) {
        wordKeys.push(key.slice(i + 1));
        wordRanks.push(rank);
      }
    });
    this.full = new KeyList(fullKeys, Int32Array.from(fullKeys.keys()));
    this.words = new KeyList(wordKeys, Int32Array.from(wordRanks));
    this.countries = new CountryMatcher(new Set(this.byRank.map((c) => c.country)));
  }

  /** Number of cities indexed. */
  get size(): number {
    return this.byRank.length;
  }

  /** The best `limit` cities for a query typed by a person (rules: README "Matching"). */
  search(query: string, limit: number = SEARCH_LIMITS.default): City[] {
    if (limit < 1) return [];
    for (const { prefix, countries } of planQuery(query, this.countries)) {
      const accept = countries && ((rank: number) => countries.has(this.byRank[rank]!.country));
      const found = this.find(prefix, limit, accept);
      if (found.length > 0) return found;
    }
    return [];
  }

  private find(prefix: string, limit: number, accept?: (rank: number) => boolean): City[] {
    const first: number[] = [];
    const later: number[] = [];
    this.full.collect(prefix, limit, first, accept);
    this.words.collect(prefix, limit, later, accept);
    if (later.length === 0) return first.map((rank) => this.byRank[rank]!);

    // Both lists are in rank order, so in score order too: merge them.
    const out: City[] = [];
    const seen = new Set<number>();
    let i = 0;
    let j = 0;
    while (out.length < limit && (i < first.length || j < later.length)) {
      const a = first[i];
      const b = later[j];
      const takeFirst =
        b === undefined ||
        (a !== undefined &&
          this.byRank[a]!.population >= this.byRank[b]!.population / WORD_MATCH_DIVISOR);
      const rank = takeFirst ? a! : b!;
      if (takeFirst) i++;
      else j++;
      if (seen.has(rank)) continue;
      seen.add(rank);
      out.push(this.byRank[rank]!);
    }
    return out;
  }
}

/** Builds the index of `cities` (see PlaceIndex). */
export function buildPlaceIndex(cities: readonly City[]): PlaceIndex {
  return new PlaceIndex(cities);
}

/** Sorted keys, the rank of each key's city, and a segment tree of the best rank in a range. */
class KeyList {
  private readonly keys: string[];
  private readonly ranks: Int32Array;
  /** Iterative segment tree: node i holds the position of the best rank below it. */
  private readonly tree: Int32Array;
  private readonly n: number;

  /** `keys[i]` belongs to the city of rank `ranks[i]`; any order. */
  constructor(keys: readonly string[], ranks: Int32Array) {
    const n = keys.length;
    const order = Uint32Array.from(keys.keys()).sort(
      (a, b) => compareText(keys[a]!, keys[b]!) || ranks[a]! - ranks[b]!,
    );
    this.n = n;
    this.keys = Array.from(order, (i) => keys[i]!);
    this.ranks = Int32Array.from(order, (i) => ranks[i]!);
    this.tree = new Int32Array(2 * n);
    for (let i = 0; i < n; i++) this.tree[n + i] = i;
    for (let i = n - 1; i >= 1; i--) {
      this.tree[i] = this.better(this.tree[2 * i]!, this.tree[2 * i + 1]!);
    }
  }

  /**
   * Appends to `out` (in rank order, no repeats) the ranks of the best cities with a key that
   * starts with `prefix` and that `accept` (if given) takes, until `out` holds `limit` ranks.
   */
  collect(prefix: string, limit: number, out: number[], accept?: (rank: number) => boolean) {
    const lo = this.lowerBound(prefix);
    const hi = this.lowerBound(`${prefix}\uffff`);
    if (lo >= hi) return;
    if (accept) this.scan(lo, hi, limit, out, accept);
    else this.bestFirst(lo, hi, limit, out);
  }

  /** Without looking at the whole range: take the best of a range, split it there, repeat. */
  private bestFirst(lo: number, hi: number, limit: number, out: number[]): void {
    const pending: Array<[position: number, lo: number, hi: number]> = [
      [this.bestIn(lo, hi), lo, hi],
    ];
    while (pending.length > 0 && out.length < limit) {
      let m = 0;
      for (let i = 1; i < pending.length; i++) {
        if (this.before(pending[i]![0], pending[m]![0])) m = i;
      }
      const [p, l, h] = pending[m]!;
      pending[m] = pending[pending.length - 1]!;
      pending.pop();
      const rank = this.ranks[p]!;
      // A city can own two keys here ("san jose de san ..."): they come out one after the other.
      if (out[out.length - 1] !== rank) out.push(rank);
      if (l < p) pending.push([this.bestIn(l, p), l, p]);
      if (p + 1 < h) pending.push([this.bestIn(p + 1, h), p + 1, h]);
    }
  }

  /** With a filter: one pass over the range, keeping the best few accepted ranks. */
  private scan(
    lo: number,
    hi: number,
    limit: number,
    out: number[],
    accept: (rank: number) => boolean,
  ): void {
    const kept: number[] = [];
    for (let p = lo; p < hi; p++) {
      const rank = this.ranks[p]!;
      if (kept.length === limit && rank >= kept[limit - 1]!) continue;
      if (kept.includes(rank) || !accept(rank)) continue;
      let i = kept.length;
      while (i > 0 && kept[i - 1]! > rank) i--;
      kept.splice(i, 0, rank);
      if (kept.length > limit) kept.pop();
    }
    out.push(...kept);
  }

  /** Position of the best rank in [lo, hi) (lo < hi). */
  private bestIn(lo: number, hi: number): number {
    let best = -1;
    for (let l = lo + this.n, r = hi + this.n; l < r; l >>= 1, r >>= 1) {
      if (l & 1) best = best < 0 ? this.tree[l++]! : this.better(best, this.tree[l++]!);
      if (r & 1) best = best < 0 ? this.tree[--r]! : this.better(best, this.tree[--r]!);
    }
    return best;
  }

  /** Whether position `a` comes before `b`: smaller rank, then smaller position. */
  private before(a: number, b: number): boolean {
    const ra = this.ranks[a]!;
    const rb = this.ranks[b]!;
    return ra < rb || (ra === rb && a < b);
  }

  private better(a: number, b: number): number {
    return this.before(a, b) ? a : b;
  }

  /** First position whose key is >= `key`. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
