/**
 * The shared runtime's singletons: one client, one cache, one calculation host
 * for every custom function and the task pane (they share one JS context).
 */
import { MarketClient } from '../client';
import { CATALOG } from '../formulas/catalog';
import { CalculationHost } from '../formulas/host';
import { loadSettings, type AddinSettings } from './settings';
import { RuntimeKvStore, StoredKeyStore } from './storage';

export interface Runtime {
  store: RuntimeKvStore;
  keys: StoredKeyStore;
  settings: AddinSettings;
  client: MarketClient;
  host: CalculationHost;
}

let current: Promise<Runtime> | null = null;

function build(store: RuntimeKvStore, keys: StoredKeyStore, settings: AddinSettings): Runtime {
  const client = new MarketClient({
    baseUrl: settings.apiBaseUrl,
    keyStore: keys,
    storage: store,
    freshnessMs: { live: settings.liveFreshnessSeconds * 1000 },
  });
  client.setDailyBudget(settings.dailyCreditBudget);
  const host = new CalculationHost({ client, catalog: CATALOG, settings: { defaultCurrency: settings.defaultCurrency, markStale: true } });
  return { store, keys, settings, client, host };
}

export function getRuntime(): Promise<Runtime> {
  if (!current) {
    current = (async () => {
      const store = new RuntimeKvStore();
      const keys = new StoredKeyStore(store);
      return build(store, keys, await loadSettings(store));
    })();
  }
  return current;
}

/** New settings: a new client (base URL, freshness) and host; the old cache is dropped with it. */
export async function applySettings(settings: AddinSettings): Promise<Runtime> {
  const { store, keys } = await getRuntime();
  const next = build(store, keys, settings);
  current = Promise.resolve(next);
  listeners.forEach((fn) => fn(next));
  return next;
}

const listeners = new Set<(r: Runtime) => void>();
/** The task pane re-subscribes to the meter when the runtime is rebuilt. */
export function onRuntimeChanged(fn: (r: Runtime) => void): () => void {
  listeners.add(fn);
  return () => listeners.delete(fn);
}
