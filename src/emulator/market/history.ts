/**
 * The historical item: several coins' values at one date, read from the daily series.
 *
 * - a past date: that day's daily candle (price = close, volume24h = the day's 24h volume,
 *   circulatingSupply = that day's), storedTime = the day's last millisecond (23:59:59.999 UTC);
 * - today: the current snapshot (price = current price, volume24h = rolling 24h volume),
 *   storedTime = now;
 * - marketCap = price x circulatingSupply, volume24hBase = volume24h / price (USD figures);
 * - EUR: USD figures x that day's EUR/USD rate (fx.ts).
 * NotFoundError when ANY id is unknown, when a coin has no data on that date (before its
 * first day, not traded), or when the date is after now.
 */
import type { HistoricalItem } from '../../api/records';
import { NotFoundError } from '../contract';
import { DAY, dayIndex, dayStart } from './calendar';
import type { Market } from './context';
import { price as fmtPrice, tokens, usd } from './decimal';
import { eurPerUsd } from './fx';
import type { Snapshot } from './snapshot';

export function historicalItems(m: Market, snap: Snapshot, now: number, date: number, ids: number[], convert: string): HistoricalItem[] {
  const coins = ids.map((id) => m.coin(id));
  if (date > now) throw new NotFoundError('no data after now');
  const d = dayIndex(date);
  const fx = convert === 'EUR' ? eurPerUsd(m.seed, d) : 1;
  return coins.map((c) => {
    if (c.lifecycle !== 'traded' || c.startDay === null || d < c.startDay || c.startDay > snap.today) {
      throw new NotFoundError(`no data for currency ${c.id} at that date`);
    }
    let p: number;
    let v: number;
    let s: number;
    let stored: number;
    if (d >= snap.today) {
      const st = snap.states[c.index]!;
      p = st.price;
      v = st.volume24h;
      s = st.circ;
      stored = now;
    } else {
      const b = m.series.dayBar(c, d);
      p = b.c;
      v = b.v;
      s = b.s;
      stored = dayStart(d) + DAY - 1;
    }
    return {
      id: c.id,
      slug: c.slug,
      symbol: c.symbol,
      name: c.name,
      price: fmtPrice(p * fx),
      marketCap: usd(p * s * fx),
      volume24h: usd(v * fx),
      volume24hBase: tokens(v / p),
      circulatingSupply: tokens(s),
      storedTime: stored,
    };
  });
}
