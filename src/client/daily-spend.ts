/**
 * Today's credits, kept on the user's machine beside the key (the client's
 * KvStore: OfficeRuntime.storage in Excel, never the workbook), so the daily
 * budget holds for the UTC day across reloads, reopened workbooks and new
 * settings, each of which starts a new client. Before this, each of them
 * started the day's count again while the pane said formulas had stopped
 * "until tomorrow (UTC)".
 *
 * Written through on every metered answer (a few hundred a day at most, a few
 * bytes each), in order; a failing store is treated as empty.
 */
import type { CreditMeter } from './credit-meter';
import type { KvStore } from './kv-store';

export const DAILY_SPEND_KEY = 'crypto-addin:credits-today:v1';

/**
 * The most credits a stored day may hold: four times the largest daily figure
 * documented (Business, 250,000 a day: api-notes, "Plans, rate limits,
 * credits"). Above it the figure is no day of this machine's requests but an
 * absurd usedCredits persisted before answers were bounded (review finding F5),
 * which would refuse every metered request until UTC midnight: read as empty.
 */
export const MAX_STORED_DAY_CREDITS = 1_000_000;

export class DailySpend {
  /** Settles once the earlier sessions' figure is counted (the budget check waits for it). */
  readonly ready: Promise<void>;
  readonly #kv: KvStore;
  readonly #meter: CreditMeter;
  #writing: Promise<void> = Promise.resolve();
  #written = -1;

  constructor(kv: KvStore, meter: CreditMeter) {
    this.#kv = kv;
    this.#meter = meter;
    this.ready = kv
      .get(DAILY_SPEND_KEY)
      .then((text) => {
        const saved = parse(text);
        if (saved) meter.addEarlierToday(saved.day, saved.credits);
      })
      .catch(() => undefined)
      .then(() => {
        meter.addEventListener('change', () => this.#save());
      });
  }

  #save(): void {
    const credits = this.#meter.creditsToday();
    if (credits === this.#written) return;
    this.#written = credits;
    const text = JSON.stringify({ day: this.#meter.today(), credits });
    this.#writing = this.#writing.then(() => this.#kv.set(DAILY_SPEND_KEY, text)).catch(() => undefined);
  }

  /** Written (tests, and before a client is replaced). */
  flush(): Promise<void> {
    return this.#writing;
  }
}

function parse(text: string | null): { day: number; credits: number } | null {
  if (!text) return null;
  try {
    const o = JSON.parse(text) as { day?: unknown; credits?: unknown };
    const credits = o.credits;
    const plausible = typeof credits === 'number' && Number.isFinite(credits) && credits >= 0 && credits <= MAX_STORED_DAY_CREDITS;
    return Number.isInteger(o.day) && plausible ? { day: o.day as number, credits } : null;
  } catch {
    return null;
  }
}
