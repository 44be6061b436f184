/**
 * Turns what a user typed into a coin: an id (number or digits), slug, symbol
 * or name, any case, trimmed, or with an explicit `id:`, `slug:`, `symbol:`,
 * `name:` prefix. Without a prefix the order is id, slug, symbol, name; input
 * written like a ticker (upper case letters, no lower case: "PEPE") tries the
 * symbol before the slug.
 *
 * A symbol (or name) shared by several coins resolves to the highest-ranked
 * one; unranked loses; ties go to the lowest id. Ranks come from the rank book;
 * when a candidate's rank is unknown the markets list is read from page 1 (the
 * first page that holds a candidate settles it, since every later page ranks
 * lower), and when no page within the cap holds one (or the first came back
 * empty, a bad answer), the candidates' profiles are read. The choice is
 * recorded in `ambiguities`.
 *
 * Unknown input: ApiError UNKNOWN_COIN naming the input and up to three close
 * matches (edit distance and prefix over slug, symbol and name; among the
 * nearest, a top coin first: coin-suggestions.ts).
 *
 * Resolutions are remembered while the map they were read from is the store's
 * current one. The pages and profiles it reads come back to it; the ranks they
 * carry reach the rank book through the client's learners.
 */
import { joinOr } from '../api/words';
import { ApiError, abortedError, hasCode, routeUnavailable } from './api-error';
import { askPastBadAnswer } from './bad-answer';
import { canonicalRequest } from './canonical-request';
import { errorRule } from './error-rules';
import { abortable } from './cancellation';
import { LIST_IDS, type ListKey, type ListResult } from './list-quotes';
import { describeCoin, type Ambiguity, type CoinRef } from './coin-ref';
import { MARKETS_PAGE_SIZE, type CoinMap, type RankBook } from './coin-map';
import { suggest } from './coin-suggestions';
import type { Answer, CallOptions, Requester } from './types';

export type ResolveOptions = CallOptions;

export interface ResolverDeps {
  /** The currency map's store (map-store.ts): `current` is the map in memory. */
  maps: {
    /** The map, the caller counted among its waiters (not rejected by the caller's signal: the memo shares it). */
    shared(o: CallOptions): Promise<CoinMap>;
    /** Count a caller waiting on `load` (a promise shared() gave) while it is in flight; false if it was given up. */
    keep(signal: AbortSignal | undefined, load: Promise<CoinMap>): boolean;
    readonly current: CoinMap | null;
  };
  ranks: RankBook;
  /** The request lifecycle: listing pages and profiles. */
  requester: Requester;
  /** The list of currencies by ids (list-quotes.ts), for a key without the markets list; the client learns ranks from its answers. */
  list?: { load(key: ListKey): Promise<ListResult> };
}

/** Pages of the markets list read to settle an ambiguous symbol before falling back to profiles. */
export const AMBIGUITY_PAGE_CAP = 4;
/** Profiles read at most to settle one ambiguous symbol. */
export const AMBIGUITY_PROFILE_CAP = 10;
const MAX_AMBIGUITIES = 200;
/** Typos whose suggestions are kept per map: a bound, not a cache policy (a sheet has a handful). */
const MAX_SUGGESTED = 500;

type Kind = 'id' | 'slug' | 'symbol' | 'name' | 'any';

export class CoinResolver {
  readonly #deps: ResolverDeps;
  /** Resolutions by input, each with the map load it waits on (shared()'s). */
  readonly #memo = new Map<string, { ref: Promise<CoinRef>; load: Promise<CoinMap> }>();
  /** What the memo's settled resolutions gave, by the input as typed: known() answers from it at once. */
  readonly #resolved = new Map<string | number, CoinRef>();
  /** The map the memo's resolutions were read from (null: none yet): another map, another memo. */
  #memoFor: CoinMap | null = null;
  readonly #ambiguities: Ambiguity[] = [];
  /**
   * "Did you mean" for text no coin answers to, by map (gone with it): a typo a sheet keeps is
   * asked again each recalculation, and each time was a pass over every coin's names (about 3 ms).
   * The ranks that order it are as they were when first asked.
   */
  readonly #suggested = new WeakMap<CoinMap, Map<string, CoinRef[]>>();

  constructor(deps: ResolverDeps) {
    this.#deps = deps;
  }

  get ambiguities(): readonly Ambiguity[] {
    return this.#ambiguities;
  }

  /** Forget memoised resolutions (a refresh). */
  forget(): void {
    this.#memo.clear();
    this.#resolved.clear();
  }

  /**
   * The coin an input already resolved to on the current map, or undefined: no
   * promise to wait on, for the warm path of a recalculation (thousands of
   * cells whose coins are all known).
   */
  known(input: string | number): CoinRef | undefined {
    const current = this.#deps.maps.current;
    return current !== null && current === this.#memoFor ? this.#resolved.get(input) : undefined;
  }

  resolve(input: string | number, o: ResolveOptions = {}): Promise<CoinRef> {
    return abortable(this.shared(input, o), o.signal);
  }

  /**
   * As resolve(), but the caller's signal only counts it among the waiters of
   * the work (the map's load): the promise is not rejected when it aborts. For a
   * caller that wraps a longer chain once (MarketClient.quote): a column of
   * prices then costs one abortable a cell, not one per step.
   */
  shared(input: string | number, o: ResolveOptions = {}): Promise<CoinRef> {
    if (o.signal?.aborted) return Promise.reject(abortedError());
    const { kind, text } = parseInput(input);
    if (text === '') {
      return Promise.reject(new ApiError({ code: 'UNKNOWN_COIN', message: 'No coin given.', suggestions: [] }));
    }
    const current = this.#deps.maps.current;
    if (current !== null && this.#memoFor !== null && current !== this.#memoFor) {
      this.forget(); // another map replaced the one the memo read: what it says may differ
      this.#memoFor = null;
    }
    // Plain text (kind 'any') is its own key: no string built per call. A kinded key cannot collide
    // with it, since text that begins "slug:" (or "id:", "symbol:", "name:") is read as kinded.
    // Ticker-style text resolves in another order (named()), so it keeps its case: "NEO" and "neo" are two
    // keys (review 2026-11-27: the first of them decided both); no lower-cased key has an upper-case letter.
    const memoKey = kind === 'any' ? (tickerStyle(kind, text) ? text : text.toLowerCase()) : `${kind}:${text.toLowerCase()}`;
    const known = this.#memo.get(memoKey);
    // A caller of a resolution in flight waits on its map load too. A load every waiter has left is being
    // given up, even once another has replaced it (review 2026-11-27: it ends ABORTED, and a live cell with
    // it): ask anew.
    if (known && this.#deps.maps.keep(o.signal, known.load)) return known.ref;
    // The memo serves every caller: a cell that is cancelled, or runs out of time, must not fail
    // the others. The map's load counts its waiters (map-store.ts shared()); the rest of the work
    // carries no one caller's signal, and each caller leaves on its own.
    const shared: ResolveOptions = o.signal ? { caller: o.caller } : o;
    // A then() rather than an async frame, and the failure handled in it rather than by a
    // catch() of its own: every distinct input waits here for the map at once.
    const original = String(input).trim();
    const load = this.#deps.maps.shared(o);
    const p: Promise<CoinRef> = load.then(
      (map) => this.#settle(map, kind, text, original, shared, memoKey, input, p),
      (e: unknown) => {
        // A coin given by its id needs no map: without one it is asked for by id (the quote brings its
        // name), and not remembered, so the map's names return when the map does.
        if (typeof input === 'number' && text !== '' && !hasCode(e, 'ABORTED')) {
          if (this.#memo.get(memoKey)?.ref === p) this.#memo.delete(memoKey);
          return { id: input, slug: text, symbol: null, name: `coin ${text}` };
        }
        return this.#forget(memoKey, p, e);
      },
    );
    this.#memo.set(memoKey, { ref: p, load });
    return p;
  }

  /** A memoised resolution on `map`: remembered when it succeeds, forgotten when it fails (the next call tries again). */
  #settle(map: CoinMap, kind: Kind, text: string, original: string, o: ResolveOptions, memoKey: string, input: string | number, p: Promise<CoinRef>): CoinRef | Promise<CoinRef> {
    this.#memoFor ??= map;
    try {
      const found = this.#lookup(map, kind, text, original, o);
      if (found instanceof Promise) return found.then((ref) => this.#remember(memoKey, p, input, ref), (e: unknown) => this.#forget(memoKey, p, e));
      return this.#remember(memoKey, p, input, found);
    } catch (e) {
      return this.#forget(memoKey, p, e);
    }
  }

  #remember(memoKey: string, p: Promise<CoinRef>, input: string | number, ref: CoinRef): CoinRef {
    if (this.#memo.get(memoKey)?.ref === p) this.#resolved.set(input, ref);
    return ref;
  }

  #forget(memoKey: string, p: Promise<CoinRef>, e: unknown): never {
    if (this.#memo.get(memoKey)?.ref === p) this.#memo.delete(memoKey);
    throw e;
  }

  /**
   * The coin `input` names on `map` when that needs nothing more: one coin, no
   * ranks to compare, no request; else undefined (the ordinary resolution then
   * decides, error included). The client's cold start asks it for every input
   * a quote waits on, as the map arrives (cold-start.ts).
   */
  peek(input: string | number, map: CoinMap): CoinRef | undefined {
    const { kind, text } = parseInput(input);
    const n = text === '' ? undefined : named(map, kind, text);
    return n === undefined || Array.isArray(n) ? undefined : (n as CoinRef);
  }

  /** The coin for the input in this map; a promise only when a shared symbol needs ranks. */
  #lookup(map: CoinMap, kind: Kind, text: string, original: string, o: ResolveOptions): CoinRef | Promise<CoinRef> {
    const n = named(map, kind, text);
    if (Array.isArray(n)) return this.#pickRanked(original, n, o);
    if (n !== undefined) return n as CoinRef;
    const suggestions = this.#suggestFor(map, text);
    const hint = suggestions.length ? ` Did you mean ${joinOr(suggestions.map(describeCoin))}?` : '';
    throw new ApiError({ code: 'UNKNOWN_COIN', message: `Unknown coin "${original}".${hint}`, suggestions });
  }

  #suggestFor(map: CoinMap, text: string): CoinRef[] {
    let byText = this.#suggested.get(map);
    if (!byText) this.#suggested.set(map, (byText = new Map()));
    const key = text.toLowerCase();
    let found = byText.get(key);
    if (!found) {
      found = suggest(map, text, this.#deps.ranks);
      if (byText.size < MAX_SUGGESTED) byText.set(key, found);
    }
    return found;
  }

  async #pickRanked(input: string, cands: readonly CoinRef[], o: ResolveOptions): Promise<CoinRef> {
    const { ranks } = this.#deps;
    const firstListedPage = () => Math.min(...cands.map((c) => ranks.page(c.id) ?? Number.POSITIVE_INFINITY));
    const allKnown =
      cands.every((c) => ranks.rank(c.id) !== undefined || ranks.isUnlisted(c.id)) ||
      // pages 0..p were read whole and p lists a candidate: the others rank lower
      (Number.isFinite(firstListedPage()) && ranks.pagesSeenThrough(firstListedPage()));
    if (!allKnown) {
      // Walk the list from page 1: once pages 0..n-1 are read and one of them
      // lists a candidate, every unlisted candidate ranks lower.
      let settled = false;
      const ids = new Set(cands.map((c) => c.id));
      for (let page = 0; page < AMBIGUITY_PAGE_CAP; page++) {
        const cr = canonicalRequest('markets', undefined, { offset: page * MARKETS_PAGE_SIZE, limit: MARKETS_PAGE_SIZE });
        // An empty first page is a bad answer, not the list's end (review F1): batch-fetch.ts's rule, asked past as it is there.
        const emptyFirst = (a: Answer) => page === 0 && (a.entry.data as readonly unknown[]).length === 0 && !a.entry.rejected?.length;
        const answer = await askPastBadAnswer(this.#deps.requester, cr, o, (a) => emptyFirst(a) || (a.entry.rejected?.length ?? 0) > 0).catch((e: unknown) => {
          if (routeUnavailable(e)) return null;
          throw e;
        });
        if (answer === null) {
          // No markets list for this key (issue #21): the candidates' ranks from the list of currencies, in one request.
          settled = await this.#ranksFromList(cands, o);
          break;
        }
        // review 2026-11-27: taken as the list's end, it marked every candidate unlisted (saved for a day) and the
        // lowest id won. It tells nothing about them: their profiles do.
        if (emptyFirst(answer)) break;
        const { entry } = answer;
        const items = entry.data as readonly { id: number }[];
        if (items.some((it) => ids.has(it.id)) || firstListedPage() <= page) {
          settled = true;
          break;
        }
        if (items.length + (entry.rejected?.length ?? 0) < MARKETS_PAGE_SIZE) {
          for (const c of cands) if (ranks.page(c.id) === undefined) ranks.markUnlisted(c.id);
          settled = true;
          break;
        }
      }
      if (!settled) {
        const unknown = cands.filter((c) => ranks.rank(c.id) === undefined).slice(0, AMBIGUITY_PROFILE_CAP);
        const results = await Promise.allSettled(unknown.map((c) => this.#deps.requester.request(canonicalRequest('profile', c.id, {}), o)));
        const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
        // review 2026-11-27: a candidate whose rank a failed request kept from us may be the top one; chosen without
        // it, the wrong coin was remembered for the session. Unsettled, it is asked again. Only the service's word
        // that a coin has no profile (scope item) leaves that coin unranked, unless it says so of every candidate.
        const transient = failed.find((r) => !(r.reason instanceof ApiError && errorRule(r.reason.code, r.reason.status).scope === 'item'));
        if (transient) throw transient.reason;
        if (failed.length > 0 && failed.length === results.length) throw failed[0].reason;
      }
    }
    const score = (c: CoinRef): number => {
      const r = ranks.rank(c.id);
      return typeof r === 'number' ? r : Number.POSITIVE_INFINITY;
    };
    const sorted = [...cands].sort((a, b) => score(a) - score(b) || a.id - b.id);
    const chosen = sorted[0];
    this.#record({ input, chosen, alternatives: sorted.slice(1), at: this.#deps.requester.now() });
    return chosen;
  }

  /**
   * Ask the list of currencies for the candidates, with the prices asked at the
   * moment (list-quotes.ts; the client learns their ranks from the answer):
   * whether it listed any it could read, and none it could not.
   */
  async #ranksFromList(cands: readonly CoinRef[], o: ResolveOptions): Promise<boolean> {
    const list = this.#deps.list;
    if (!list) return false;
    try {
      const found = await Promise.all(cands.slice(0, LIST_IDS).map((c) => list.load({ id: c.id, caller: o.caller, signal: o.signal })));
      // A candidate whose item could not be read taught no rank, and may be the top one: their profiles settle it
      // (review 2026-11-27: the others won without it).
      return found.some((q) => q !== null && 'quote' in q) && !found.some((q) => q !== null && 'unreadable' in q);
    } catch (e) {
      if (routeUnavailable(e)) return false; // profiles, then
      throw e;
    }
  }

  #record(a: Ambiguity): void {
    const key = a.input.trim().toLowerCase();
    const i = this.#ambiguities.findIndex((x) => x.input.trim().toLowerCase() === key);
    if (i >= 0) this.#ambiguities.splice(i, 1);
    this.#ambiguities.push(a);
    if (this.#ambiguities.length > MAX_AMBIGUITIES) this.#ambiguities.shift();
  }
}

/** What `text` names on `map` (the header's order): one coin, the coins sharing a symbol or name, or none. */
function named(map: CoinMap, kind: Kind, text: string): CoinRef | readonly CoinRef[] | undefined {
  if ((kind === 'id' || kind === 'any') && /^\d+$/.test(text)) {
    const c = map.byId(Number(text));
    if (c) return c;
  }
  const order: ('slug' | 'symbol' | 'name')[] = tickerStyle(kind, text) ? ['symbol', 'slug', 'name'] : ['slug', 'symbol', 'name'];
  for (const k of order) {
    if (kind !== k && kind !== 'any') continue;
    if (k === 'slug') {
      const c = map.bySlug(text);
      if (c) return c;
      continue;
    }
    const cands = k === 'symbol' ? map.bySymbol(text) : map.byName(text);
    if (cands.length === 1) return cands[0];
    if (cands.length > 1) return cands;
  }
  return undefined;
}

/** Ticker-looking input (upper case, no lower case) tries symbols before slugs: "PEPE" is the ticker. */
export function tickerStyle(kind: Kind, text: string): boolean {
  return kind === 'any' && /[A-Z]/.test(text) && !/[a-z]/.test(text);
}

export function parseInput(input: string | number): { kind: Kind; text: string } {
  if (typeof input === 'number') return { kind: 'id', text: Number.isInteger(input) && input > 0 ? String(input) : '' };
  const s = String(input).trim();
  if (!s.includes(':')) return { kind: 'any', text: s }; // most input: no prefix to look for
  const m = /^(id|slug|symbol|name)\s*:\s*(.*)$/i.exec(s);
  if (m) return { kind: m[1].toLowerCase() as Kind, text: m[2].trim() };
  return { kind: 'any', text: s };
}
