/**
 * The currency map (every coin's id, slug, symbol, name) with lookup indexes,
 * and what the client has learned about coins' places in the markets list
 * (rank, position, or "not listed"). Both persist (map-store.ts) so that a
 * workbook reopened the same day spends no credit on the map: for the
 * reference freshness after it was fetched, the learned places with it.
 */
import { ENDPOINTS } from '../api/endpoints';
import type { Profile } from '../api/records';
import type { CoinRef } from './coin-ref';

/** A page of the markets list, as the quote batcher and the resolver read it: the endpoint's largest page. */
export const MARKETS_PAGE_SIZE = ENDPOINTS.markets.pageSize;
/** Query parameters that reorder or filter the markets list: an answer with any of them says nothing of places. */
const LISTING_FILTERS = ['sortBy', 'sortOrder', 'category', 'tag', 'ecosystem', 'lifecycle'] as const;

export class CoinMap {
  readonly fetchedAt: number;
  readonly #items: CoinRef[];
  readonly #byId = new Map<number, CoinRef>();
  readonly #bySlug = new Map<string, CoinRef>();
  readonly #bySymbol = new Map<string, CoinRef[]>();
  readonly #byName = new Map<string, CoinRef[]>();

  constructor(items: readonly CoinRef[], fetchedAt: number) {
    this.fetchedAt = fetchedAt;
    this.#items = items.map((c) => ({ id: c.id, slug: c.slug, symbol: c.symbol, name: c.name }));
    for (const c of this.#items) {
      this.#byId.set(c.id, c);
      if (!this.#bySlug.has(c.slug.toLowerCase())) this.#bySlug.set(c.slug.toLowerCase(), c);
      if (c.symbol) push(this.#bySymbol, c.symbol.toUpperCase(), c);
      push(this.#byName, c.name.trim().toLowerCase(), c);
    }
  }

  get size(): number {
    return this.#items.length;
  }
  all(): readonly CoinRef[] {
    return this.#items;
  }
  byId(id: number): CoinRef | undefined {
    return this.#byId.get(id);
  }
  bySlug(slug: string): CoinRef | undefined {
    return this.#bySlug.get(slug.toLowerCase());
  }
  bySymbol(symbol: string): readonly CoinRef[] {
    return this.#bySymbol.get(symbol.toUpperCase()) ?? [];
  }
  byName(name: string): readonly CoinRef[] {
    return this.#byName.get(name.trim().toLowerCase()) ?? [];
  }
  /** Younger than `ttlMs` (the reference freshness). */
  isFresh(now: number, ttlMs: number): boolean {
    return now - this.fetchedAt < ttlMs;
  }

  /** Compact form for storage: [id, slug, symbol, name] rows. */
  serialize(): string {
    return JSON.stringify({ fetchedAt: this.fetchedAt, rows: this.#items.map((c) => [c.id, c.slug, c.symbol, c.name]) });
  }

  static parse(text: string): CoinMap | null {
    try {
      const o = JSON.parse(text) as { fetchedAt?: unknown; rows?: unknown };
      if (typeof o.fetchedAt !== 'number' || !Array.isArray(o.rows)) return null;
      const items: CoinRef[] = [];
      for (const r of o.rows as unknown[]) {
        if (!Array.isArray(r) || typeof r[0] !== 'number' || typeof r[1] !== 'string' || typeof r[3] !== 'string') return null;
        items.push({ id: r[0], slug: r[1], symbol: typeof r[2] === 'string' ? r[2] : null, name: r[3] });
      }
      return new CoinMap(items, o.fetchedAt);
    } catch {
      return null;
    }
  }
}

function push<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const a = m.get(k);
  if (a) a.push(v);
  else m.set(k, [v]);
}

/**
 * Learned places of coins in the markets list sorted by rank: rank (null =
 * unranked), 0-based position (→ which page of 250 holds the coin), and coins
 * that a full walk of the list did not find (their quotes come from profiles).
 */
export class RankBook {
  readonly #rank = new Map<number, number | null>();
  readonly #position = new Map<number, number>();
  readonly #unlisted = new Set<number>();
  /** Pages (0-based, of 250) read whole: every coin on them is known. */
  readonly #pagesSeen = new Set<number>();
  #dirty = false;
  readonly #onChange: () => void;

  /** `onChange` runs after every update (the client persists the book from it). */
  constructor(onChange: () => void = () => undefined) {
    this.#onChange = onChange;
  }

  #touch(): void {
    this.#dirty = true;
    this.#onChange();
  }

  /** undefined: not known. null: known to be unranked. */
  rank(id: number): number | null | undefined {
    return this.#rank.get(id);
  }
  /** The markets page (0-based, of 250) the coin was last seen on. */
  page(id: number): number | undefined {
    const p = this.#position.get(id);
    return p === undefined ? undefined : Math.floor(p / MARKETS_PAGE_SIZE);
  }
  /** Where to look first: the page it was seen on, else the page its rank suggests (rank learned from a profile). */
  likelyPage(id: number): number | undefined {
    const p = this.page(id);
    if (p !== undefined || this.#unlisted.has(id)) return p;
    const r = this.#rank.get(id);
    return typeof r === 'number' && r >= 1 ? Math.floor((r - 1) / MARKETS_PAGE_SIZE) : undefined;
  }
  isUnlisted(id: number): boolean {
    return this.#unlisted.has(id);
  }
  /** Nothing learned: no coin's place, rank or absence is known (a cold start). */
  get empty(): boolean {
    return this.#rank.size === 0 && this.#position.size === 0 && this.#unlisted.size === 0;
  }

  /** Whether pages 0..page were all read whole (so a coin not on them is further down, or unlisted). */
  pagesSeenThrough(page: number): boolean {
    for (let p = 0; p <= page; p++) if (!this.#pagesSeen.has(p)) return false;
    return true;
  }

  /** A fresh markets answer: places, when it is the list by rank (no filters). */
  learnMarkets(query: Readonly<Record<string, string | undefined>>, items: readonly { id: number; rank: number | null }[]): void {
    if (LISTING_FILTERS.some((k) => query[k] !== undefined)) return;
    this.learnListing(Number(query.offset ?? 0), Number(query.limit ?? ENDPOINTS.markets.params.limit.default), items);
  }

  /**
   * A fresh profile: its rank; not traded or unranked, the markets list will not have it (quotes go straight to
   * the profile). Traded with a rank, the list should: an unlisted mark goes, so a wrong one (a bad page taken
   * as the list's end, review F1) is mended by the next profile instead of costing a profile a day.
   */
  learnProfile(p: Pick<Profile, 'id' | 'rank' | 'lifecycle'>): void {
    this.learnRank(p.id, p.rank);
    if (p.lifecycle !== 'traded' || p.rank === null) this.markUnlisted(p.id);
    else if (this.#unlisted.delete(p.id)) this.#touch();
  }

  /**
   * A markets page sorted by rank (no filters), starting at `offset`, asked with `limit`. An empty one teaches
   * nothing: an empty first page is a bad answer (review F1), not a page read whole (pagesSeen) to persist.
   */
  learnListing(offset: number, limit: number, items: readonly { id: number; rank: number | null }[]): void {
    if (items.length === 0) return;
    if (limit === MARKETS_PAGE_SIZE && offset % MARKETS_PAGE_SIZE === 0) this.#pagesSeen.add(offset / MARKETS_PAGE_SIZE);
    items.forEach((it, i) => {
      this.#rank.set(it.id, it.rank);
      this.#position.set(it.id, offset + i);
      this.#unlisted.delete(it.id);
    });
    this.#touch();
  }
  /** Ranks without places (the list of currencies, asked by id). */
  learnRanks(items: readonly { id: number; rank: number | null }[]): void {
    for (const it of items) this.learnRank(it.id, it.rank);
  }
  learnRank(id: number, rank: number | null): void {
    if (this.#rank.get(id) === rank) return;
    this.#rank.set(id, rank);
    this.#touch();
  }
  /** A full walk of the list did not find the coin. */
  markUnlisted(id: number): void {
    this.#unlisted.add(id);
    this.#position.delete(id);
    if (!this.#rank.has(id)) this.#rank.set(id, null);
    this.#touch();
  }
  clear(): void {
    this.#rank.clear();
    this.#position.clear();
    this.#unlisted.clear();
    this.#pagesSeen.clear();
    this.#touch();
  }

  takeDirty(): boolean {
    const d = this.#dirty;
    this.#dirty = false;
    return d;
  }

  serialize(savedAt: number): string {
    return JSON.stringify({
      savedAt,
      rank: [...this.#rank],
      position: [...this.#position],
      unlisted: [...this.#unlisted],
      pagesSeen: [...this.#pagesSeen],
    });
  }

  /** Merge a stored book (ignored when older than `maxAgeMs`, the map's freshness, or unreadable). */
  load(text: string, now: number, maxAgeMs: number): void {
    try {
      const o = JSON.parse(text) as {
        savedAt?: number;
        rank?: [number, number | null][];
        position?: [number, number][];
        unlisted?: number[];
        pagesSeen?: number[];
      };
      if (typeof o.savedAt !== 'number' || now - o.savedAt >= maxAgeMs) return;
      for (const [id, r] of o.rank ?? []) if (!this.#rank.has(id)) this.#rank.set(id, r);
      for (const [id, p] of o.position ?? []) if (!this.#position.has(id)) this.#position.set(id, p);
      for (const id of o.unlisted ?? []) if (!this.#position.has(id)) this.#unlisted.add(id);
      for (const p of o.pagesSeen ?? []) this.#pagesSeen.add(p);
    } catch {
      // unreadable: start empty
    }
  }
}
