/**
 * How an answer leaves the emulator: JSON with the CORS headers a browser
 * pane needs, the latency added to every response (± a jitter drawn from the
 * seed), a `slow` fault's extra delay, the response log, and the faults that
 * answer in the API's place (429, 500, malformed, hang, drop).
 */
import type http from 'node:http';
import { API_ERROR_CODES, type ApiErrorCode } from '../api/endpoints';
import { SLOW_ANSWER_MS, mulberry32, type Fault } from './faults';
import type { EmulatorOptions, LatencySpec, ResponseLogEntry } from './options';

export const JSON_TYPE = 'application/json; charset=utf-8';
export const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'Retry-After',
} as const;
export const PREFLIGHT_HEADERS = {
  ...CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, OPTIONS',
  'Access-Control-Allow-Headers': 'X-Api-Key, Content-Type',
  'Access-Control-Max-Age': '600',
} as const;
/** What a `malformed` fault answers with (200, JSON content type). */
export const MALFORMED_BODY = '{"data":[{"id":1,"slug":"bitcoin","price":"6';

export class HttpError extends Error {
  constructor(
    readonly code: ApiErrorCode,
    message?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message ?? API_ERROR_CODES[code].message);
  }
}

export class Responder {
  /** Added to every response; Emulator.setLatency replaces it. */
  latency: LatencySpec;
  readonly #opts: Pick<EmulatorOptions, 'onResponse'>;
  readonly #count: (status: string) => void;
  readonly #jitterRandom: () => number;
  readonly #timers = new Set<NodeJS.Timeout>();
  /** Responses a `slow` fault delays (answered normally, late). */
  readonly #slowed = new WeakSet<http.ServerResponse>();
  readonly #slowMs: number;

  /** `count`: tallies a response by its status ("hang" and "drop" for those faults). */
  constructor(opts: Pick<EmulatorOptions, 'onResponse' | 'slowMs'>, latency: LatencySpec, seed: number, count: (status: string) => void) {
    this.#opts = opts;
    this.latency = latency;
    this.#count = count;
    this.#jitterRandom = mulberry32(seed ^ 0x5bd1e995);
    this.#slowMs = opts.slowMs ?? SLOW_ANSWER_MS;
  }

  /** A `slow` fault: this response is answered as usual, late. */
  slow(res: http.ServerResponse): void {
    this.#slowed.add(res);
  }

  /** Cancel every delayed response (the emulator is closing). */
  cancelDelayed(): void {
    for (const t of this.#timers) clearTimeout(t);
    this.#timers.clear();
  }

  #nextDelay(): number {
    const latency = this.latency;
    if (latency.ms <= 0 && latency.jitter <= 0) return 0;
    const j = latency.jitter > 0 ? (this.#jitterRandom() * 2 - 1) * latency.jitter : 0;
    return Math.max(0, Math.round(latency.ms + j));
  }

  #later(fn: () => void, delay: number): void {
    if (delay <= 0) return fn();
    const t = setTimeout(() => {
      this.#timers.delete(t);
      fn();
    }, delay);
    this.#timers.add(t);
  }

  send(
    res: http.ServerResponse,
    status: number,
    body: string,
    headers: Record<string, string>,
    log: Omit<ResponseLogEntry, 'status' | 'delay'>,
  ): void {
    this.#count(String(status));
    const delay = this.#nextDelay() + (this.#slowed.has(res) ? this.#slowMs : 0);
    this.#opts.onResponse?.({ ...log, status, delay });
    this.#later(() => {
      if (res.destroyed || res.writableEnded) return;
      res.writeHead(status, { ...headers, 'Content-Length': String(Buffer.byteLength(body)) });
      res.end(body);
    }, delay);
  }

  sendJson(res: http.ServerResponse, status: number, body: string, log: Omit<ResponseLogEntry, 'status' | 'delay'>, extra: Record<string, string> = {}): void {
    this.send(res, status, body, { ...CORS_HEADERS, 'Content-Type': JSON_TYPE, ...extra }, log);
  }

  sendError(res: http.ServerResponse, err: HttpError, log: Omit<ResponseLogEntry, 'status' | 'delay' | 'code'>): void {
    const { status } = API_ERROR_CODES[err.code];
    const body = JSON.stringify({ error: { code: err.code, message: err.message, status } });
    this.sendJson(res, status, body, { ...log, code: err.code }, err.headers);
  }

  applyFault(req: http.IncomingMessage, res: http.ServerResponse, fault: Fault, log: Omit<ResponseLogEntry, 'status' | 'delay'>): void {
    const entry = { ...log, fault: fault.kind, code: fault.kind };
    switch (fault.kind) {
      case '429':
        return this.sendError(res, new HttpError('RATE_LIMIT_EXCEEDED', undefined, { 'Retry-After': String(fault.retryAfter) }), entry);
      case '500':
        return this.sendError(res, new HttpError('INTERNAL_ERROR'), entry);
      case 'malformed':
        return this.sendJson(res, 200, MALFORMED_BODY, entry);
      case 'hang':
        // Never answer; the socket stays open until the client gives up or close() destroys it.
        this.#count('hang');
        this.#opts.onResponse?.({ ...entry, status: 0, delay: 0 });
        return;
      case 'slow':
        return; // answered as usual, late (see send)
      case 'drop': {
        this.#count('drop');
        const delay = this.#nextDelay();
        this.#opts.onResponse?.({ ...entry, status: 0, delay });
        this.#later(() => req.socket.destroy(), delay);
        return;
      }
    }
  }
}
