/**
 * Fault injection for the emulator: an opt-in share of requests fail the way a
 * real network and server can, reproducibly from a seed, plus a queue of faults
 * a test can line up for the next requests.
 *
 * Kinds:
 * - `429`: 429 RATE_LIMIT_EXCEEDED with `Retry-After` (1 s unless queued with another value);
 * - `500`: 500 INTERNAL_ERROR;
 * - `hang`: the response never comes (until the client gives up, or the server closes);
 * - `malformed`: 200 with a body that is not valid JSON;
 * - `drop`: the connection is destroyed without a response;
 * - `slow`: the normal answer, late (SLOW_ANSWER_MS unless the server is told otherwise).
 *
 * Spec syntax (CLI `--faults`): comma-separated `kind:share`, share in [0, 1],
 * shares summing to at most 1, e.g. `429:0.05,500:0.05,hang:0.01,malformed:0.02,drop:0.01`.
 */
export const FAULT_KINDS = ['429', '500', 'hang', 'malformed', 'drop', 'slow'] as const;
/** How late a `slow` answer comes by default: slow, but inside the client's 20 s per attempt. */
export const SLOW_ANSWER_MS = 5_000;
export type FaultKind = (typeof FAULT_KINDS)[number];
export type FaultRates = Partial<Record<FaultKind, number>>;

export interface QueuedFault {
  kind: FaultKind;
  /** For `429`: the Retry-After value in whole seconds (default 1). */
  retryAfter?: number;
  /** Only a request to exactly this pathname (e.g. `/v3/currencies/markets`) takes it; default any. */
  path?: string;
  /** Repeat this fault for the next `times` matching requests (default 1). */
  times?: number;
}

/** A fault chosen for one request. */
export interface Fault {
  kind: FaultKind;
  retryAfter: number;
  /** True when it came from the queue, false when drawn at random. */
  queued: boolean;
}

/** Small seeded PRNG (mulberry32): same seed, same sequence. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function isFaultKind(s: string): s is FaultKind {
  return (FAULT_KINDS as readonly string[]).includes(s);
}

/** Parse `429:0.05,500:0.05,hang:0.01`. Throws with a readable message on bad input. */
export function parseFaultSpec(spec: string): FaultRates {
  const rates: FaultRates = {};
  const text = spec.trim();
  if (text === '' || text === 'none') return rates;
  for (const part of text.split(',')) {
    const m = /^\s*([a-z0-9]+)\s*[:=]\s*([0-9]*\.?[0-9]+)\s*$/i.exec(part);
    if (!m) throw new Error(`bad fault "${part}": expected kind:share, e.g. 500:0.05`);
    const kind = m[1].toLowerCase();
    if (!isFaultKind(kind)) throw new Error(`unknown fault kind "${m[1]}": one of ${FAULT_KINDS.join(', ')}`);
    const share = Number(m[2]);
    if (!(share >= 0 && share <= 1)) throw new Error(`fault share for ${kind} must be between 0 and 1`);
    rates[kind] = (rates[kind] ?? 0) + share;
  }
  checkRates(rates);
  return rates;
}

function checkRates(rates: FaultRates): void {
  let sum = 0;
  for (const [kind, share] of Object.entries(rates)) {
    if (!isFaultKind(kind)) throw new Error(`unknown fault kind "${kind}"`);
    if (typeof share !== 'number' || !(share >= 0 && share <= 1)) throw new Error(`fault share for ${kind} must be between 0 and 1`);
    sum += share;
  }
  if (sum > 1 + 1e-9) throw new Error(`fault shares add up to ${sum}, more than 1`);
}

export function formatFaultSpec(rates: FaultRates): string {
  const parts = FAULT_KINDS.filter((k) => (rates[k] ?? 0) > 0).map((k) => `${k}:${rates[k]}`);
  return parts.length ? parts.join(',') : 'none';
}

export class FaultInjector {
  private queued: { kind: FaultKind; retryAfter: number; path?: string }[] = [];
  private random: () => number;
  private currentRates: FaultRates = {};
  /** How many faults of each kind were injected so far. */
  readonly injected: Record<FaultKind, number> = { '429': 0, '500': 0, hang: 0, malformed: 0, drop: 0, slow: 0 };

  constructor(rates: FaultRates | string = {}, seed = 1) {
    this.random = mulberry32(seed);
    this.setRates(rates);
  }

  /** Replace the random shares (an object or a spec string). */
  setRates(rates: FaultRates | string): void {
    const r = typeof rates === 'string' ? parseFaultSpec(rates) : { ...rates };
    checkRates(r);
    this.currentRates = r;
  }

  get rates(): Readonly<FaultRates> {
    return this.currentRates;
  }

  /** Restart the random sequence from a seed. */
  reseed(seed: number): void {
    this.random = mulberry32(seed);
  }

  /** Line up faults for the next requests, in order (e.g. `queue({ kind: '500', times: 3 })`). */
  queue(...faults: QueuedFault[]): void {
    for (const f of faults) {
      if (!isFaultKind(f.kind)) throw new Error(`unknown fault kind "${String(f.kind)}"`);
      const times = f.times ?? 1;
      for (let i = 0; i < times; i++) this.queued.push({ kind: f.kind, retryAfter: f.retryAfter ?? 1, path: f.path });
    }
  }

  /** Queued faults not yet taken. */
  get pending(): number {
    return this.queued.length;
  }

  /** Drop queued faults and set random shares to zero. */
  clear(): void {
    this.queued = [];
    this.currentRates = {};
  }

  /**
   * The fault for one request to `pathname`, or null: the first queued fault that
   * matches the path, otherwise a random draw against the shares. A draw is made
   * for every request (when shares are set), so the sequence only depends on the
   * seed and the order of requests.
   */
  next(pathname: string): Fault | null {
    const i = this.queued.findIndex((f) => f.path === undefined || f.path === pathname);
    if (i >= 0) {
      const [f] = this.queued.splice(i, 1);
      this.injected[f.kind]++;
      return { kind: f.kind, retryAfter: f.retryAfter, queued: true };
    }
    let total = 0;
    for (const k of FAULT_KINDS) total += this.currentRates[k] ?? 0;
    if (total <= 0) return null;
    const r = this.random();
    let acc = 0;
    for (const k of FAULT_KINDS) {
      acc += this.currentRates[k] ?? 0;
      if (r < acc) {
        this.injected[k]++;
        return { kind: k, retryAfter: 1, queued: false };
      }
    }
    return null;
  }
}
