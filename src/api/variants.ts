/**
 * The documented variants of a record (the team's API notes, "The
 * service answers in more than one shape"), one adapter per record kind: each
 * turns a variant into the field names and types of the record the formulas
 * read (src/api/records.ts). An adapter sees one record (one item of a list),
 * never mutates it, and leaves what it does not know alone: the record's schema
 * then decides. Only answers that fail the strict check get here.
 */

export type Variant = (raw: Record<string, unknown>) => Record<string, unknown>;

/** Copy `raw` with each alias renamed to the record's name, where the record's own name is absent. */
function renamed(raw: Record<string, unknown>, aliases: Readonly<Record<string, string>>): Record<string, unknown> {
  let out: Record<string, unknown> | null = null;
  for (const [alias, name] of Object.entries(aliases)) {
    if (!(alias in raw) || name in raw) continue;
    out ??= { ...raw };
    out[name] = raw[alias];
    delete out[alias];
  }
  return out ?? raw;
}

/** Epoch ms from epoch ms or ISO text (the docs have used both); anything else unchanged. */
function epochMs(x: unknown): unknown {
  if (typeof x !== 'string') return x;
  const t = Date.parse(x);
  return Number.isNaN(t) ? x : t;
}

/** ISO text from ISO text or epoch ms (`nextUnlockDate` has been both); anything else unchanged. */
function isoText(x: unknown): unknown {
  return typeof x === 'number' && Number.isFinite(x) ? new Date(x).toISOString() : x;
}

/**
 * /v3/status: the spec shape (with or without `endpoints`: a missing nullable
 * field is null anyway), or the older `{status, plan, creditsTotal,
 * creditsUsed, creditsRemaining, maxRPM, ...}` with monthly figures only.
 */
export const statusVariant: Variant = (raw) => {
  if (!('creditsTotal' in raw) && !('maxRPM' in raw)) return raw;
  return {
    plan: raw.plan,
    rateLimitPerMinute: raw.maxRPM,
    credits: {
      dailyLimit: null,
      dailyUsed: null,
      dailyRemaining: null,
      monthlyLimit: raw.creditsTotal,
      monthlyUsed: raw.creditsUsed,
      monthlyRemaining: raw.creditsRemaining,
    },
    currentPeriodStart: raw.currentPeriodStart,
    currentPeriodEnd: raw.currentPeriodEnd,
    endpoints: null,
  };
};

/** A candle's open time as `time` (spec) or `date` (the doc's example), epoch ms or ISO. */
export const candleVariant: Variant = (raw) => {
  const r = renamed(raw, { date: 'time' });
  return typeof r.time === 'string' ? { ...r, time: epochMs(r.time) } : r;
};

/**
 * An upcoming unlock: `id`/`name`/`symbol`/`imageUrl`/`time`/`unlockTokens`/`unlockValue` (spec);
 * `currencyId`/`tokenAmount`/`usdAmount` with the rest as the spec (the coin list's doc page,
 * docs.cryptorank.io/api-reference/vesting-&-token-unlocks/upcoming-token-unlocks); or
 * `currencyId`/`currencyName`/`currencySymbol`/`currencyImages{icon,x60,x150,native}`/`date`
 * (ISO, 00:00Z)/`tokenAmount`/`usdAmount` (`/v3/token-unlocks/upcoming`,
 * docs.cryptorank.io/api-reference/token-unlocks/upcoming-token-unlocks-across-all-coins).
 */
export const upcomingUnlockVariant: Variant = (raw) => {
  const r = renamed(raw, {
    currencyId: 'id', currencyName: 'name', currencySymbol: 'symbol',
    tokenAmount: 'unlockTokens', usdAmount: 'unlockValue', date: 'time',
  });
  const out = typeof r.time === 'string' ? { ...r, time: epochMs(r.time) } : r;
  // The spec's imageUrl is the 150x150 logo (the coin list's doc page says so of its own).
  const images = raw.currencyImages as Record<string, unknown> | null | undefined;
  if ('imageUrl' in out || images === undefined) return out;
  const url = images === null ? null : images.x150 ?? images.native ?? images.icon ?? images.x60 ?? null;
  return { ...out, imageUrl: url };
};

/**
 * Tokenomics: `nextUnlockValue` or `nextUnlockUsdAmount`; `nextUnlockDate` ISO or epoch ms;
 * the source links as `vestingSourceUrls` (spec) or `vestingInfo` (URLs, [doc:
 * docs.cryptorank.io/api-reference/currencies/tokenomics-summary]). An older documented
 * version has neither: that costs its cell (#N/A naming the field), as any missing field.
 */
export const tokenomicsVariant: Variant = (raw) => {
  const r = renamed(raw, { nextUnlockUsdAmount: 'nextUnlockValue', vestingInfo: 'vestingSourceUrls' });
  return typeof r.nextUnlockDate === 'number' ? { ...r, nextUnlockDate: isoText(r.nextUnlockDate) } : r;
};

/**
 * A vesting allocation: the documented names (`totalAmount`, `lockedAmount`,
 * `nextUnlockUsdAmount`) or the inventory's (`totalTokens`, `lockedTokens`,
 * `nextUnlockValue`); `nextUnlockDate` ISO or epoch ms (both documented). Without
 * `isTracked` the allocation is tracked: the documented list excludes untracked
 * allocations ("Untracked allocations are excluded", the same page).
 */
export const vestingAllocationVariant: Variant = (raw) => {
  const r = renamed(raw, { totalTokens: 'totalAmount', lockedTokens: 'lockedAmount', nextUnlockValue: 'nextUnlockUsdAmount' });
  const out = typeof r.nextUnlockDate === 'number' ? { ...r, nextUnlockDate: isoText(r.nextUnlockDate) } : r;
  return 'isTracked' in out ? out : { ...out, isTracked: true };
};

/** VC pressure: `nextUnlockDate` ISO or epoch ms. */
export const vcPressureVariant: Variant = (raw) =>
  typeof raw.nextUnlockDate === 'number' ? { ...raw, nextUnlockDate: isoText(raw.nextUnlockDate) } : raw;

/**
 * Fear & Greed and the Altcoin Season Index: the snapshot `{currentValue,
 * classification, ...}` [inv, doc], or a chart point `{time, value,
 * classification}` as the project first guessed (the rest of the snapshot is
 * then missing: empty cells).
 */
export const indexSnapshotVariant: Variant = (raw) => {
  const r = renamed(raw, { value: 'currentValue' });
  if (typeof r.yearlyHighDate !== 'number' && typeof r.yearlyLowDate !== 'number') return r;
  return { ...r, yearlyHighDate: isoText(r.yearlyHighDate), yearlyLowDate: isoText(r.yearlyLowDate) };
};

/** A whole answer in another documented form, before its items are read (a list endpoint answering an object). */
export type AnswerVariant = (raw: unknown) => unknown;

/**
 * The sparkline: a list of `{time, price, volume}` (spec, current docs), or an
 * older documented `{interval, days, points: [[ms, price], ...]}` without
 * volumes (their cells are empty), its times as epoch ms or, as the docs' second
 * chart convention has them, ISO text (`[[isoTime, "value"]]`: api-notes, "Round two").
 */
export const sparklineAnswerVariant: AnswerVariant = (raw) => {
  const points = (raw as { points?: unknown } | null)?.points;
  if (!Array.isArray(points)) return raw;
  return points.map((p) => (Array.isArray(p) ? { time: epochMs(p[0]), price: typeof p[1] === 'number' ? decimalText(p[1]) : p[1] } : p));
};

/** A JSON number as the API's decimal text ("0.00000012", not "1.2e-7"). */
function decimalText(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const s = String(n);
  return /e/i.test(s) ? n.toFixed(20).replace(/\.?0+$/, '') : s;
}
