/**
 * One market instance: the universe, the price series and the caches keyed by the
 * clock (snapshots per hour) or by past days (daily totals, which never change).
 */
import { NotFoundError } from '../contract';
import { PriceSeries } from './series';
import { buildSnapshot, type Snapshot } from './snapshot';
import { buildUniverse, type Coin, type Universe } from './universe';

export const BTC_ID = 1;
export const ETH_ID = 2;
export const USDT_ID = 3;

/** Market caps of the ranked coins at one day's close (or now, for today). */
export interface DayTotals {
  total: number;
  btc: number;
  eth: number;
  usdt: number;
}

export class Market {
  readonly u: Universe;
  readonly series: PriceSeries;
  private readonly snapshots = new Map<number, Snapshot>();
  private readonly totals = new Map<number, DayTotals>();
  /** Per-key memo for clock-independent derived data (holders snapshots, altcoin set...). */
  readonly memo = new Map<string, unknown>();

  constructor(seed: number) {
    this.u = buildUniverse(seed);
    this.series = new PriceSeries(this.u);
  }

  get seed(): number {
    return this.u.seed;
  }

  /** The current market for `now` (cached per clock hour; the last 4 hours are kept). */
  snapshot(now: number): Snapshot {
    const key = Math.floor(now / 3_600_000);
    let s = this.snapshots.get(key);
    if (!s) {
      s = buildSnapshot(this.u, this.series, now);
      if (this.snapshots.size >= 4) this.snapshots.delete(this.snapshots.keys().next().value!);
      this.snapshots.set(key, s);
    }
    return s;
  }

  /** The coin with this id, or NotFoundError. */
  coin(id: number | undefined): Coin {
    const c = id === undefined ? undefined : this.u.byId.get(id);
    if (!c) throw new NotFoundError(`currency ${id} not found`);
    return c;
  }

  /**
   * Market caps on day d: for today, the snapshot's (current prices); for a past day, each
   * ranked-kind coin (traded, not ETF, listed by d) at that day's close and supply.
   */
  dayTotals(d: number, snap: Snapshot): DayTotals {
    if (d >= snap.today) {
      const cap = (id: number) => snap.states[this.u.byId.get(id)!.index]?.mcap ?? 0;
      return { total: snap.totalMcap, btc: cap(BTC_ID), eth: cap(ETH_ID), usdt: cap(USDT_ID) };
    }
    let t = this.totals.get(d);
    if (!t) {
      t = { total: 0, btc: 0, eth: 0, usdt: 0 };
      for (const c of this.u.coins) {
        if (c.lifecycle !== 'traded' || c.type === 'etf' || c.startDay === null || c.startDay > d) continue;
        const cap = this.series.close(c, d) * this.series.circ(c, d);
        t.total += cap;
        if (c.id === BTC_ID) t.btc = cap;
        else if (c.id === ETH_ID) t.eth = cap;
        else if (c.id === USDT_ID) t.usdt = cap;
      }
      this.totals.set(d, t);
    }
    return t;
  }
}
