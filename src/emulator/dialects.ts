/**
 * Dialects of the local API server: the same synthetic market answered in each
 * documented shape of the service (the team's API notes, "The service
 * answers in more than one shape"), so the add-in's tolerant reading is tested
 * over HTTP. `spec` is the spec's shape (the default); `docs` the provider's
 * documentation pages' names; `legacy` the older documented shapes. Every
 * reshaping is lossless: the add-in must read the same values from each.
 *
 * Shapes, one table keyed by endpoint (a record's reshaping applies to every
 * item of a list):
 *
 * | endpoint                      | docs                                        | legacy                                  |
 * |-------------------------------|---------------------------------------------|-----------------------------------------|
 * | status                        | no `endpoints`                              | `creditsTotal`/`maxRPM`, no daily       |
 * | candles, ohlcv                | `date` (epoch ms) for `time`                | `date` as ISO text                      |
 * | upcomingUnlocks, tokenUnlocks | `currencyId`, `tokenAmount`, `usdAmount`    | the same                                |
 * | tokenomics                    | `nextUnlockUsdAmount` for `nextUnlockValue` | `nextUnlockDate` as epoch ms            |
 * | vcPressure                    | —                                           | `nextUnlockDate` as epoch ms            |
 */
import type { EndpointName } from '../api/endpoints';
import type { StatusBody } from '../api/records';

export const DIALECTS = ['spec', 'docs', 'legacy'] as const;
export type Dialect = (typeof DIALECTS)[number];

export function isDialect(x: string): x is Dialect {
  return (DIALECTS as readonly string[]).includes(x);
}

type Item = Record<string, unknown>;
type Reshape = (x: Item) => Item;

function rename(x: Item, names: Readonly<Record<string, string>>): Item {
  const out: Item = {};
  for (const [k, val] of Object.entries(x)) out[names[k] ?? k] = val;
  return out;
}
const msOf = (iso: unknown): unknown => (typeof iso === 'string' ? Date.parse(iso) : iso);
const isoOf = (ms: unknown): unknown => (typeof ms === 'number' ? new Date(ms).toISOString() : ms);

const UNLOCK_NAMES = { id: 'currencyId', unlockTokens: 'tokenAmount', unlockValue: 'usdAmount' };

const RESHAPES: Partial<Record<EndpointName, Partial<Record<Exclude<Dialect, 'spec'>, Reshape>>>> = {
  status: {
    docs: (s) => {
      const { endpoints: _omitted, ...rest } = s;
      return rest;
    },
    legacy: (raw) => {
      const s = raw as unknown as StatusBody;
      return {
        status: 'ok',
        plan: s.plan,
        creditsTotal: s.credits.monthlyLimit,
        creditsUsed: s.credits.monthlyUsed,
        creditsRemaining: s.credits.monthlyRemaining,
        maxRPM: s.rateLimitPerMinute,
        currentPeriodStart: s.currentPeriodStart,
        currentPeriodEnd: s.currentPeriodEnd,
      };
    },
  },
  candles: {
    docs: (c) => rename(c, { time: 'date' }),
    legacy: (c) => ({ ...rename(c, { time: 'date' }), date: isoOf(c.time) }),
  },
  ohlcv: {
    docs: (c) => rename(c, { time: 'date' }),
    legacy: (c) => ({ ...rename(c, { time: 'date' }), date: isoOf(c.time) }),
  },
  upcomingUnlocks: {
    docs: (u) => rename(u, UNLOCK_NAMES),
    legacy: (u) => rename(u, UNLOCK_NAMES),
  },
  tokenUnlocks: {
    docs: (u) => rename(u, UNLOCK_NAMES),
    legacy: (u) => rename(u, UNLOCK_NAMES),
  },
  tokenomics: {
    docs: (t) => rename(t, { nextUnlockValue: 'nextUnlockUsdAmount' }),
    legacy: (t) => ({ ...t, nextUnlockDate: msOf(t.nextUnlockDate) }),
  },
  vcPressure: {
    legacy: (p) => ({ ...p, nextUnlockDate: msOf(p.nextUnlockDate) }),
  },
};

/** `data` (or the status body) of `name` as `dialect` answers it. */
export function inDialect(dialect: Dialect, name: EndpointName, data: unknown): unknown {
  if (dialect === 'spec') return data;
  const f = RESHAPES[name]?.[dialect];
  if (!f) return data;
  if (Array.isArray(data)) return data.map((x) => (isItem(x) ? f(x) : x));
  return isItem(data) ? f(data) : data;
}

function isItem(x: unknown): x is Item {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}
