/**
 * Dialects of the local API server: the same synthetic market answered in each
 * documented shape of the service (the team's API notes, "The service
 * answers in more than one shape" and "Round two"), so the add-in's tolerant
 * reading is tested over HTTP. `spec` is the spec's shape (the default); `docs`
 * the provider's documentation pages' names; `legacy` the older documented
 * shapes. Every reshaping is lossless except where the documented shape has no
 * such field (marked "drops"): the add-in must read the same values from each,
 * and show #N/A naming a field the shape lacks.
 *
 * Shapes, one table keyed by endpoint (a record's reshaping applies to every
 * item of a list):
 *
 * | endpoint           | docs                                                           | legacy                                  |
 * |--------------------|----------------------------------------------------------------|-----------------------------------------|
 * | status             | no `endpoints`                                                 | `creditsTotal`/`maxRPM`, no daily       |
 * | candles, ohlcv     | `date` (epoch ms) for `time`                                   | `date` as ISO text                      |
 * | upcomingUnlocks    | `currencyId`, `tokenAmount`, `usdAmount`                       | the same                                |
 * | tokenUnlocks       | `currencyId/Name/Symbol`, `currencyImages{icon,x60,x150,native}`, `date` ISO, `tokenAmount`, `usdAmount` | as upcomingUnlocks |
 * | tokenomics         | `nextUnlockUsdAmount`, `vestingInfo`; drops `untracked*`       | `nextUnlockDate` as epoch ms            |
 * | vestingAllocations | drops `allocationId`, `isTracked`, `endDate`; refuses `includeUntracked` | the inventory's `totalTokens`, `lockedTokens`, `nextUnlockValue`, `nextUnlockDate` as epoch ms; the rest as docs |
 * | vcPressure         | —                                                              | `nextUnlockDate` as epoch ms            |
 *
 * Sources: tokenomics docs.cryptorank.io/api-reference/currencies/tokenomics-summary; vesting
 * allocations .../vesting-&-token-unlocks/vesting-allocations ("Untracked allocations are
 * excluded", no query parameters; an older page has epoch-ms dates); token unlocks
 * .../token-unlocks/upcoming-token-unlocks-across-all-coins; inventory names from the API notes [inv].
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
const TOKEN_UNLOCK_NAMES = { ...UNLOCK_NAMES, name: 'currencyName', symbol: 'currencySymbol' };

/** The item of `/v3/token-unlocks/upcoming` as documented: logos in four sizes, the day as ISO text. */
function tokenUnlockDoc(u: Item): Item {
  const { imageUrl, time, ...rest } = rename(u, TOKEN_UNLOCK_NAMES);
  const x150 = typeof imageUrl === 'string' ? imageUrl : null;
  const sized = (size: string) => (x150 === null ? null : x150.replace('/150x150.', `/${size}.`));
  return { ...rest, currencyImages: { icon: sized('32x32'), x60: sized('60x60'), x150, native: sized('native') }, date: isoOf(time) };
}

function without(x: Item, names: readonly string[]): Item {
  const out = { ...x };
  for (const n of names) delete out[n];
  return out;
}

/** A vesting allocation as its documentation page shows it. */
const allocationDoc = (a: Item) => without(a, ['allocationId', 'isTracked', 'endDate']);

/** Query parameters a dialect's service refuses though the endpoint table lists them (400 "property X should not exist"). */
const REFUSED_PARAMS: Partial<Record<EndpointName, Partial<Record<Exclude<Dialect, 'spec'>, readonly string[]>>>> = {
  // "path id only, no query parameters" [doc]: the spec's includeUntracked is not there.
  vestingAllocations: { docs: ['includeUntracked'], legacy: ['includeUntracked'] },
};

/** The names in `query` that `dialect` refuses on `name`. */
export function refusedParams(dialect: Dialect, name: EndpointName, query: Readonly<Record<string, string>>): string[] {
  if (dialect === 'spec') return [];
  return (REFUSED_PARAMS[name]?.[dialect] ?? []).filter((p) => Object.hasOwn(query, p));
}

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
    docs: tokenUnlockDoc,
    legacy: (u) => rename(u, UNLOCK_NAMES),
  },
  tokenomics: {
    docs: (t) => without(rename(t, { nextUnlockValue: 'nextUnlockUsdAmount', vestingSourceUrls: 'vestingInfo' }), ['untrackedAmount', 'untrackedPercent']),
    legacy: (t) => ({ ...t, nextUnlockDate: msOf(t.nextUnlockDate) }),
  },
  vestingAllocations: {
    docs: allocationDoc,
    legacy: (a) => {
      const d = rename(allocationDoc(a), { totalAmount: 'totalTokens', lockedAmount: 'lockedTokens', nextUnlockUsdAmount: 'nextUnlockValue' });
      return { ...d, nextUnlockDate: msOf(d.nextUnlockDate) };
    },
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
