/**
 * The naive baseline: a small, separate calculation path that answers each
 * cell with one HTTP request for that cell's data — no cache, no batching, no
 * sharing, no pacing, no retries — plus one currency-map request, fetched once,
 * to turn the coins typed as text into ids. Plain fetch against the same local
 * API server.
 *
 * Formula → request: PRICE, QUOTE, PROFILE → the profile (/v3/currencies/{id});
 * OHLCV → candles (/v3/currencies/{id}/historical); RETURNS → analytics/returns;
 * TOKENOMICS → tokenomics; GLOBAL → global/market; FEARGREED → global/fear-greed;
 * ALTSEASON → global/altcoin-index; DOMINANCE → global/dominance; TRENDING →
 * currencies/trending; GAINERS/LOSERS → currencies/gainers-losers;
 * BLOCKCHAINS → blockchains/list; DERIVATIVES → currencies/derivatives; …
 */
import { ENDPOINTS, endpointPath, type EndpointName } from '../src/api/endpoints';
import { parseFormula, type ParsedArg } from '../src/cli/formula-parser';

export interface NaiveOutcome {
  ok: boolean;
  /** The `data` of the answer (ok), or the error code / reason. */
  value?: unknown;
  error?: string;
}

export interface NaiveRun {
  outcomes: NaiveOutcome[];
  /** HTTP requests this client sent (map included). */
  requestsSent: number;
  /** Of which currency-map requests (at most 1). */
  mapRequests: number;
  ms: number;
}

export interface NaiveOptions {
  /** Origin of the API, e.g. http://127.0.0.1:4010 (paths start with /v3). */
  origin: string;
  key: string;
  fetch?: typeof fetch;
}

interface MapItem {
  id: number;
  slug: string;
  symbol: string | null;
  name: string;
}

class NaiveError extends Error {}

const text = (a: ParsedArg | undefined): string | null => {
  const v = Array.isArray(a) ? a[0]?.[0] : a;
  return v === null || v === undefined || v === '' ? null : String(v);
};

/** Excel serial date or "YYYY-MM-DD" → epoch ms of that UTC day. */
function day(a: ParsedArg | undefined): number {
  const v = Array.isArray(a) ? a[0]?.[0] : a;
  if (typeof v === 'number') return Math.round((v - 25_569) * 86_400_000);
  const ms = typeof v === 'string' ? Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(v) ? `${v}T00:00:00Z` : v) : NaN;
  if (!Number.isFinite(ms)) throw new NaiveError(`not a date: ${JSON.stringify(v)}`);
  return ms;
}

export function createNaiveClient(o: NaiveOptions) {
  const f = o.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  let sent = 0;
  let mapRequests = 0;
  let map: Promise<MapItem[]> | null = null;

  async function get(name: EndpointName, id: number | undefined, query: Record<string, string | undefined>): Promise<unknown> {
    const qs = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.set(k, v);
    const url = `${o.origin}${endpointPath(name, id)}${qs.size > 0 ? `?${qs}` : ''}`;
    sent++;
    const res = await f(url, { headers: { 'X-Api-Key': o.key } });
    const body = (await res.json().catch(() => null)) as { data?: unknown; error?: { code?: string } } | null;
    if (!res.ok || body === null) throw new NaiveError(body?.error?.code ?? `HTTP ${res.status}`);
    return ENDPOINTS[name].path === '/v3/status' ? body : body.data;
  }

  function loadMap(): Promise<MapItem[]> {
    map ??= (mapRequests++, get('currencyMap', undefined, {}) as Promise<MapItem[]>);
    return map;
  }

  /** Id, slug, symbol or name (first match in the map: no ranks here). */
  async function coinId(a: ParsedArg | undefined): Promise<number> {
    const v = Array.isArray(a) ? a[0]?.[0] : a;
    if (typeof v === 'number' && Number.isInteger(v) && v > 0) return v;
    const t = text(a)?.trim().toLowerCase();
    if (!t) throw new NaiveError('no coin');
    if (/^\d+$/.test(t)) return Number(t);
    const items = await loadMap();
    const hit =
      items.find((c) => c.slug.toLowerCase() === t) ??
      items.find((c) => c.symbol?.toLowerCase() === t) ??
      items.find((c) => c.name.toLowerCase() === t);
    if (!hit) throw new NaiveError(`unknown coin ${t}`);
    return hit.id;
  }

  const convert = (a: ParsedArg | undefined) => (text(a)?.toUpperCase() === 'EUR' ? 'EUR' : undefined);

  /** One cell: one request for its data. */
  async function cell(formula: string): Promise<NaiveOutcome> {
    try {
      const { name, args } = parseFormula(formula);
      const a = args;
      switch (name) {
        case 'PRICE':
          return { ok: true, value: ((await get('profile', await coinId(a[0]), { convert: convert(a[1]) })) as { price?: unknown }).price };
        case 'QUOTE':
          return { ok: true, value: await get('profile', await coinId(a[0]), { convert: convert(a[2]) }) };
        case 'PROFILE':
          return { ok: true, value: await get('profile', await coinId(a[0]), { convert: convert(a[2]) }) };
        case 'OHLCV': {
          const from = day(a[1]);
          const to = a[2] === null || a[2] === undefined ? Date.now() : day(a[2]) + 86_400_000 - 1;
          const iv = { daily: 'day', weekly: 'week', monthly: 'month', '0': 'day', '1': 'week', '2': 'month' }[text(a[3])?.toLowerCase() ?? 'daily'] ?? 'day';
          return { ok: true, value: await get('candles', await coinId(a[0]), { interval: iv, from: new Date(from).toISOString(), to: new Date(to).toISOString() }) };
        }
        case 'RETURNS':
          return { ok: true, value: await get('returns', await coinId(a[0]), { period: text(a[1])?.toLowerCase() ?? 'yearly' }) };
        case 'TOKENOMICS':
          return { ok: true, value: await get('tokenomics', await coinId(a[0]), {}) };
        case 'PERFORMANCE':
          return { ok: true, value: await get('performance', await coinId(a[0]), {}) };
        case 'SPARKLINE':
          return { ok: true, value: await get('sparkline', await coinId(a[0]), {}) };
        case 'CONTRACTS':
          return { ok: true, value: await get('contracts', await coinId(a[0]), {}) };
        case 'HISTORICAL': {
          const id = await coinId(a[0]);
          return { ok: true, value: await get('historicalItem', undefined, { date: new Date(day(a[1])).toISOString(), currencyIds: String(id), convert: convert(a[3]) }) };
        }
        case 'MARKETS': {
          const n = typeof a[0] === 'number' ? a[0] : 100;
          return { ok: true, value: await get('markets', undefined, { limit: String(Math.min(250, Math.max(1, n))) }) };
        }
        case 'GLOBAL':
          return { ok: true, value: await get('globalMarket', undefined, {}) };
        case 'FEARGREED':
          return { ok: true, value: await get('fearGreed', undefined, {}) };
        case 'ALTSEASON':
          return { ok: true, value: await get('altcoinIndex', undefined, {}) };
        case 'DOMINANCE':
          return { ok: true, value: await get('dominance', undefined, {}) };
        case 'TRENDING':
          return { ok: true, value: await get('trending', undefined, {}) };
        case 'GAINERS':
        case 'LOSERS':
          return { ok: true, value: await get('gainersLosers', undefined, { type: name === 'GAINERS' ? 'gainers' : 'losers' }) };
        case 'BLOCKCHAINS':
          return { ok: true, value: await get('blockchainList', undefined, {}) };
        case 'DERIVATIVES':
          return { ok: true, value: await get('derivatives', undefined, {}) };
        default:
          return { ok: false, error: `naive: no request for CRYPTO.${name}` };
      }
    } catch (e) {
      return { ok: false, error: e instanceof Error ? e.message : String(e) };
    }
  }

  return {
    cell,
    get requestsSent() {
      return sent;
    },
    get mapRequests() {
      return mapRequests;
    },
  };
}

/** Every cell at once, as Excel recalculates. */
export async function runNaive(cells: readonly string[], o: NaiveOptions): Promise<NaiveRun> {
  const client = createNaiveClient(o);
  const t0 = performance.now();
  const outcomes = await Promise.all(cells.map((c) => client.cell(c)));
  return { outcomes, requestsSent: client.requestsSent, mapRequests: client.mapRequests, ms: performance.now() - t0 };
}
