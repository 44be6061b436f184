/**
 * The shared runtime's singletons: one client, one cache, one calculation host
 * and one live price stream for every custom function and the task pane (they
 * share one JS context). The add-in's module-level state lives here; elsewhere
 * only memos that change no answer (test/module-state.test.ts lists them). What
 * one start of the add-in learns of its workbook stays on the Runtime through
 * settings changes.
 */
import { MarketClient } from '../client';
import { CATALOG } from '../formulas/catalog';
import { CalculationHost } from '../formulas/host';
import { PriceStream } from '../formulas/price-stream';
import { loadSettings, type AddinSettings } from './settings';
import { RuntimeKvStore, StoredKeyStore } from './storage';
import { recalculateWorkbook } from './workbook-cells';
import { DateSystemProbe } from './workbook-traits';

/** What a start of the add-in (a workbook opening) keeps when settings rebuild the rest. */
interface Start {
  store: RuntimeKvStore;
  keys: StoredKeyStore;
  /** The workbook's 1900 or 1904 date system, asked of Excel once (workbook-traits.ts). */
  dateSystem: DateSystemProbe;
  /** Whether the refresh-on-open check has run: once per start (the task pane's open-section.ts). */
  opening: { refreshChecked: boolean };
}

export interface Runtime extends Start {
  settings: AddinSettings;
  client: MarketClient;
  host: CalculationHost;
  /** LIVEPRICE's one poll loop over this client (its cells move to the next runtime's). */
  stream: PriceStream;
}

let current: Promise<Runtime> | null = null;

function build({ store, keys, dateSystem, opening }: Start, settings: AddinSettings): Runtime {
  const client = new MarketClient({
    baseUrl: settings.apiBaseUrl,
    keyStore: keys,
    storage: store,
    freshnessMs: { live: settings.liveFreshnessSeconds * 1000 },
  });
  client.setDailyBudget(settings.dailyCreditBudget);
  const host = new CalculationHost({ client, catalog: CATALOG, settings: { defaultCurrency: settings.defaultCurrency, markStale: true } });
  const stream = new PriceStream({ client, liveFreshnessMs: settings.liveFreshnessSeconds * 1000 });
  return { store, keys, dateSystem, opening, settings, client, host, stream };
}

/** Excel said 1904 after the first cells went on as 1900: every formula again, so none keeps a day 4 years off. */
function recalculateLate(): void {
  recalculateWorkbook().catch(() => undefined); // a workbook closing meanwhile: nothing left to correct
}

export function getRuntime(): Promise<Runtime> {
  if (!current) {
    current = (async () => {
      const store = new RuntimeKvStore();
      const start: Start = { store, keys: new StoredKeyStore(store), dateSystem: new DateSystemProbe({ onLateAnswer: recalculateLate }), opening: { refreshChecked: false } };
      void start.dateSystem.ask(); // beside the settings' read: the first cell waits on both, not one after the other
      return build(start, await loadSettings(store));
    })();
  }
  return current;
}

/** New settings: a new client (base URL, freshness) and host; the old cache is dropped with it. */
export async function applySettings(settings: AddinSettings): Promise<Runtime> {
  const previous = await getRuntime();
  const next = build(previous, settings);
  current = Promise.resolve(next);
  listeners.forEach((fn) => fn(next));
  previous.stream.dispose(); // its cells have moved to the new stream
  return next;
}

const listeners = new Set<(r: Runtime) => void>();
/** The task pane re-subscribes to the meter when the runtime is rebuilt. */
export function onRuntimeChanged(fn: (r: Runtime) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
