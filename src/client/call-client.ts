/**
 * The client as one formula call sees it: bound to its caller (credits are
 * attributed to the formula) and its signal (the call's cancellation), so a
 * formula asks for data without passing either along.
 */
import type { ConvertCurrency, EndpointData, EndpointName } from '../api/endpoints';
import type { AccountStatus, HistoricalItem } from '../api/records';
import type { CoinMap, RankBook } from './coin-map';
import type { CoinRef } from './coin-ref';
import type { CreditMeter } from './credit-meter';
import type { HistoricalAnswer, HistoricalKey } from './historical-batcher';
import type { PagesOptions } from './paging';
import type { Quote } from './quote';
import type { CallOptions, Fetched, RequestOptions } from './types';

/** What a bound call passes beyond the caller and signal it is bound to. */
export type CallRequest = Omit<RequestOptions, keyof CallOptions>;
export type CallPages = Omit<PagesOptions, keyof CallOptions>;

/** What the bound client needs of MarketClient. */
export interface CallTarget {
  readonly meter: CreditMeter;
  get<N extends EndpointName>(name: N, req: RequestOptions): Promise<Fetched<EndpointData<N>>>;
  getPages<N extends EndpointName>(name: N, req: PagesOptions): Promise<Fetched<EndpointData<N>>>;
  status(opts: { signal?: AbortSignal; force?: boolean }): Promise<AccountStatus>;
  resolveCoin(input: string | number, o: CallOptions): Promise<CoinRef>;
  coinList(o: CallOptions): Promise<{ map: CoinMap; ranks: RankBook }>;
  quote(coin: string | number | CoinRef, o: CallOptions & { currency?: ConvertCurrency }): Promise<Quote>;
  quoteNow(coin: string | number | CoinRef, currency?: ConvertCurrency): Quote | undefined;
  historical(key: HistoricalKey, o: CallOptions): Promise<HistoricalItem>;
  historicalAnswer(item: HistoricalItem): HistoricalAnswer | undefined;
}

type QuoteOptions = CallOptions & { currency?: ConvertCurrency };

export class CallClient {
  readonly #c: CallTarget;
  readonly #o: CallOptions;
  /** quote()'s options for the currency last asked: a client bound to a cell usually asks one. */
  #quoteOptions: QuoteOptions | undefined;

  /** `settlesItself`: the caller settles when its signal aborts (the calculation host does; types.ts). */
  constructor(client: CallTarget, caller: string, signal?: AbortSignal, settlesItself = false) {
    this.#c = client;
    this.#o = { caller, signal, settlesItself };
  }

  /** Requests and credits of this session (plan included). */
  get meter(): CreditMeter {
    return this.#c.meter;
  }

  get<N extends EndpointName>(name: N, req: CallRequest = {}): Promise<Fetched<EndpointData<N>>> {
    return this.#c.get(name, { ...req, ...this.#o });
  }

  getPages<N extends EndpointName>(name: N, req: CallPages = {}): Promise<Fetched<EndpointData<N>>> {
    return this.#c.getPages(name, { ...req, ...this.#o });
  }

  /** Plan and credits (free); `force` skips the cache. */
  status(opts: { force?: boolean } = {}): Promise<AccountStatus> {
    return this.#c.status({ ...opts, signal: this.#o.signal });
  }

  resolveCoin(input: string | number): Promise<CoinRef> {
    return this.#c.resolveCoin(input, this.#o);
  }

  /** The currency map (memory, storage, or one request) and the ranks learned so far: SEARCH without the search endpoint. */
  coinList(): Promise<{ map: CoinMap; ranks: RankBook }> {
    return this.#c.coinList(this.#o);
  }

  quote(coin: string | number | CoinRef, opts: { currency?: ConvertCurrency } = {}): Promise<Quote> {
    let o = this.#quoteOptions;
    if (!o || o.currency !== opts.currency) this.#quoteOptions = o = { caller: this.#o.caller, signal: this.#o.signal, settlesItself: this.#o.settlesItself, currency: opts.currency };
    return this.#c.quote(coin, o);
  }

  /** The quote at once when nothing needs waiting for (resolved coin, fresh quote), else undefined. */
  quoteNow(coin: string | number | CoinRef, opts: { currency?: ConvertCurrency } = {}): Quote | undefined {
    return this.#c.quoteNow(coin, opts.currency);
  }

  /** One coin at one date, coalesced with every other HISTORICAL load (historical-batcher.ts). */
  historical(key: HistoricalKey): Promise<HistoricalItem> {
    return this.#c.historical(key, this.#o);
  }

  /** The answer a historical item came in (answer-tracking.ts notes it for provenance). */
  historicalAnswer(item: HistoricalItem): HistoricalAnswer | undefined {
    return this.#c.historicalAnswer(item);
  }
}
