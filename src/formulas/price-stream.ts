/**
 * PriceStream: the poller behind LIVEPRICE (live.ts), serving every cell that
 * live-cell.ts subscribes.
 *
 * PriceStream is pure (no Office globals): cells subscribe, one poll loop
 * serves them all. Each tick asks the client for the quote of every due
 * subscription at once, so the client's quote batcher folds them into as few
 * markets pages as the coins need. Identical arguments share one subscription.
 *
 * How often a tick may come (the floor) is live-pacing.ts's rule: no sooner
 * than the client's live freshness, within a share of the plan's requests per
 * minute and of its daily credits (or the user's daily budget, where lower).
 * Each subscription is then polled no more often than max(its interval, floor).
 * The loop stops when the last subscriber leaves: no timer is left behind.
 *
 * Stale prices. A poll the client could not refresh (the daily budget reached,
 * an outage) comes back as the last good quote marked `stale`, or, where the
 * client holds none, as an error that allows the last good value (lastGood).
 * Either way the cell gets its last price marked stale, delivered as a change
 * even when the number is the same; liveCell shows it "(stale)" as every other
 * formula's stale value (provenance.ts markStale), and the next fresh quote
 * clears the mark. An error that allows no stand-in (no key, an unknown coin)
 * reaches the cell as the error.
 */
import { DEFAULT_FRESHNESS_MS } from '../api/endpoints';
import { CallClient } from '../client/call-client';
import { quoteIn, type MoneyQuote } from './currency';
import type { FormulaError } from './cells';
import { notTraded, toFormulaError } from './failure';
import { LIVE_CALLER, type LiveArgs } from './live';
import { pollFloorMs, tickCost, type LiveClient, type LivePacing } from './live-pacing';

/** A subscription is due when at most this much of its interval is left (timer jitter). */
const DUE_SLACK_MS = 1_000;
/** setTimeout fires at once beyond 2^31-1 ms: longer waits are taken in steps. */
const MAX_TIMER_MS = 2_000_000_000;

export type TimerHandle = unknown;

export interface PriceStreamOptions {
  client: LiveClient;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => TimerHandle;
  clearTimer?: (handle: TimerHandle) => void;
  /** The client's live freshness (its `freshnessMs.live`); default 60 s. */
  liveFreshnessMs?: number;
  /** Share of the plan's requests per minute streaming may use; default 0.25. */
  rateShare?: number;
  /** Share of the daily credits (the plan's, or the user's budget where lower) streaming may use; default 0.25. */
  dailyShare?: number;
  /** Credits are attributed to this caller; default LIVEPRICE. */
  caller?: string;
}

/**
 * `failure`: the error that left this price standing stale, given once when it starts standing in (review
 * 2026-11-27: entities #2: it was dropped, so the pane's error log never heard of a failing stream), for the
 * cell's host to log (host.report); not again while the same stale price stands, so the log is not flooded.
 */
export type PriceListener = (price: number, quote: MoneyQuote, failure?: FormulaError) => void;
export type ErrorListener = (error: FormulaError) => void;

interface Listener {
  onValue: PriceListener;
  onError: ErrorListener;
}

type Outcome = { price: number; quote: MoneyQuote } | { error: FormulaError };

interface Subscription {
  key: string;
  args: LiveArgs;
  listeners: Set<Listener>;
  last: Outcome | null;
  lastFetch: number | null;
  inFlight: boolean;
  /** From the last quote: rank (markets page) or null (unlisted: a profile request). */
  rank: number | null | undefined;
}

export interface PriceStreamStats {
  /** Poll rounds run (the first fetch of a new subscription counts as one). */
  polls: number;
  /** Quotes asked of the client. */
  quotes: number;
  subscriptions: number;
  listeners: number;
  timerPending: boolean;
}

export class PriceStream {
  readonly #client: LiveClient;
  readonly #now: () => number;
  readonly #setTimer: (fn: () => void, ms: number) => TimerHandle;
  readonly #clearTimer: (h: TimerHandle) => void;
  readonly #pacing: LivePacing;
  readonly #caller: string;
  readonly #subs = new Map<string, Subscription>();
  #timer: { handle: TimerHandle; due: number } | null = null;
  #ticking = false;
  #lastTickEnd: number | null = null;
  #abort = new AbortController();
  #running = new Set<Promise<void>>();
  #polls = 0;
  #quotes = 0;

  constructor(opts: PriceStreamOptions) {
    this.#client = opts.client;
    this.#now = opts.now ?? Date.now;
    this.#setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.#clearTimer = opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
    this.#pacing = {
      freshnessMs: opts.liveFreshnessMs ?? DEFAULT_FRESHNESS_MS.live,
      rateShare: opts.rateShare ?? 0.25,
      dailyShare: opts.dailyShare ?? 0.25,
    };
    this.#caller = opts.caller ?? LIVE_CALLER;
  }

  /**
   * Start (or join) the stream for these arguments. A joiner gets the last
   * value at once; a new subscription is fetched at once. Returns the
   * unsubscribe function (idempotent).
   */
  subscribe(args: LiveArgs, onValue: PriceListener, onError: ErrorListener): () => void {
    const key = `${typeof args.coin === 'number' ? args.coin : args.coin.toLowerCase()}|${args.currency}|${args.intervalSeconds}`;
    let sub = this.#subs.get(key);
    const listener: Listener = { onValue, onError };
    const isNew = !sub;
    if (!sub) {
      sub = { key, args, listeners: new Set(), last: null, lastFetch: null, inFlight: false, rank: undefined };
      this.#subs.set(key, sub);
    }
    sub.listeners.add(listener);
    if (sub.last) deliver(listener, sub.last);
    if (isNew) this.#track(this.#poll([sub]));
    else this.#schedule();
    const s = sub;
    return () => {
      if (!s.listeners.delete(listener)) return;
      if (s.listeners.size === 0 && this.#subs.get(s.key) === s) this.#subs.delete(s.key);
      if (this.#subs.size === 0) this.#stop();
      else this.#schedule();
    };
  }

  /** Requests and credits one tick over every subscription needs (estimated from the coins' ranks: live-pacing.ts). */
  perTick(): { requests: number; credits: number } {
    return tickCost(this.#subs.values());
  }

  /** The shortest time between polls the plan affords (ms, whole seconds: live-pacing.ts). */
  floorMs(): number {
    return pollFloorMs(this.#client, this.#pacing, this.perTick());
  }

  /** How often a subscription with this interval is actually polled now. */
  effectiveIntervalMs(intervalSeconds: number, floor = this.floorMs()): number {
    return Math.max(intervalSeconds * 1000, floor);
  }

  stats(): PriceStreamStats {
    let listeners = 0;
    for (const s of this.#subs.values()) listeners += s.listeners.size;
    return { polls: this.#polls, quotes: this.#quotes, subscriptions: this.#subs.size, listeners, timerPending: this.#timer !== null };
  }

  /** Settles when no poll is running (tests). */
  async idle(): Promise<void> {
    while (this.#running.size > 0) await Promise.allSettled([...this.#running]);
  }

  /** Drop every subscription and stop (runtime rebuilt, add-in unloading). */
  dispose(): void {
    this.#subs.clear();
    this.#stop();
  }

  // ------------------------------------------------------------ loop

  #track(p: Promise<void>): void {
    this.#running.add(p);
    void p.finally(() => this.#running.delete(p));
  }

  #stop(): void {
    if (this.#timer) this.#clearTimer(this.#timer.handle);
    this.#timer = null;
    this.#lastTickEnd = null;
    this.#abort.abort();
    this.#abort = new AbortController();
  }

  /** The loop's period: the shortest effective interval among the subscriptions. */
  #period(): number {
    const floor = this.floorMs();
    let min = Infinity;
    for (const s of this.#subs.values()) min = Math.min(min, s.args.intervalSeconds * 1000);
    return Math.max(floor, min);
  }

  #schedule(): void {
    if (this.#subs.size === 0) return this.#stop();
    if (this.#ticking) return; // the tick reschedules when it ends
    const now = this.#now();
    // Next tick: one period after the last one ended, or after the earliest first fetch.
    let anchor = this.#lastTickEnd;
    if (anchor === null) {
      for (const s of this.#subs.values()) if (s.lastFetch !== null) anchor = anchor === null ? s.lastFetch : Math.min(anchor, s.lastFetch);
    }
    if (anchor === null) return; // first fetches still running; they reschedule
    const due = Math.max(now, anchor + this.#period());
    if (this.#timer && this.#timer.due === due) return;
    if (this.#timer) this.#clearTimer(this.#timer.handle);
    const clamped = due - now > MAX_TIMER_MS;
    const handle = this.#setTimer(() => {
      if (this.#timer?.handle !== handle) return;
      this.#timer = null;
      if (clamped && this.#now() < due - DUE_SLACK_MS) return this.#schedule(); // a long wait, taken in steps
      this.#track(this.#tick());
    }, Math.min(due - now, MAX_TIMER_MS));
    this.#timer = { handle, due };
  }

  async #tick(): Promise<void> {
    this.#ticking = true;
    try {
      const now = this.#now();
      const floor = this.floorMs();
      const due = [...this.#subs.values()].filter(
        (s) => !s.inFlight && (s.lastFetch === null || now - s.lastFetch >= this.effectiveIntervalMs(s.args.intervalSeconds, floor) - DUE_SLACK_MS),
      );
      if (due.length > 0) await this.#fetch(due);
      this.#lastTickEnd = this.#now();
    } finally {
      this.#ticking = false;
    }
    this.#schedule();
  }

  /** A new subscription's first fetch: outside the tick, so the cell gets a value at once. */
  async #poll(subs: Subscription[]): Promise<void> {
    await this.#fetch(subs);
    this.#schedule();
  }

  /** One round: every quote asked at once (the client batches them), each subscription told its outcome. */
  async #fetch(subs: Subscription[]): Promise<void> {
    this.#polls++;
    const signal = this.#abort.signal;
    for (const s of subs) s.inFlight = true;
    this.#quotes += subs.length;
    const client = new CallClient(this.#client, this.#caller, signal);
    const outcomes = await Promise.all(
      subs.map(async (s): Promise<Outcome> => {
        try {
          const q = await quoteIn(client, s.args.coin, s.args.currency);
          s.rank = q.rank;
          if (q.price === null) return { error: notTraded(q.name) };
          return { price: q.price, quote: q };
        } catch (e) {
          return { error: toFormulaError(e, this.#caller) };
        }
      }),
    );
    const end = this.#now();
    subs.forEach((s, i) => {
      s.inFlight = false;
      s.lastFetch = end;
      if (this.#subs.get(s.key) !== s || signal.aborted) return; // left while we were asking
      let o = outcomes[i];
      let failure: FormulaError | undefined;
      // A failure that lets the last good value stand in, where the client held no quote to serve
      // stale itself (Refresh all data dropped it, the cache let it go): the cell's last price, marked.
      if ('error' in o && o.error.lastGood && s.last && 'price' in s.last) {
        failure = o.error;
        o = { price: s.last.price, quote: { ...s.last.quote, stale: true } };
      }
      const changed = !s.last || !sameOutcome(s.last, o);
      s.last = o;
      if (changed) for (const l of [...s.listeners]) deliver(l, o, failure);
    });
  }
}

function sameOutcome(a: Outcome, b: Outcome): boolean {
  // The same number going stale (or fresh again) is a change: the cell shows it.
  if ('price' in a && 'price' in b) return a.price === b.price && a.quote.stale === b.quote.stale;
  if ('error' in a && 'error' in b) return a.error.code === b.error.code && a.error.message === b.error.message;
  return false;
}

function deliver(l: Listener, o: Outcome, failure?: FormulaError): void {
  try {
    if ('price' in o) l.onValue(o.price, o.quote, failure);
    else l.onError(o.error);
  } catch {
    // a listener's failure must not stop the stream for the others
  }
}
