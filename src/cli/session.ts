/**
 * A calculation session outside Excel: a client and a calculation host over
 * the given API, or over the local API server started in-process. The formula
 * CLI, the formula tests and the benchmark all calculate through this.
 */
import { MarketClient, MemoryKeyStore, MemoryKvStore, type ClientOptions, type KvStore } from '../client';
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator/server';
import { CATALOG } from '../formulas/catalog';
import type { CalculationHost, HostOptions } from '../formulas/host';
import type { Settings } from '../formulas/formula-context';
import { loadFunctionMetadata } from './metadata';
import { EXCEL_WEB, WorkbookHost, type WorkbookBehaviour } from './workbook-host';

export interface SessionOptions {
  /** API origin; omitted → the local API server is started in-process. */
  apiUrl?: string;
  /** API key; null = no key. Default demo-pro. */
  key?: string | null;
  emulator?: EmulatorOptions;
  settings?: Partial<Omit<Settings, 'dateSystem'>>;
  /** How the Excel build being imitated passes blanks and takes dates (workbook-host.ts); default: Excel on the web, 1900 system. */
  workbook?: Partial<WorkbookBehaviour>;
  storage?: KvStore;
  client?: Partial<Omit<ClientOptions, 'baseUrl' | 'keyStore'>>;
  host?: Pick<HostOptions, 'deadlineMs'>;
}

export interface Session {
  client: MarketClient;
  host: CalculationHost;
  keys: MemoryKeyStore;
  /** Present when the session started its own local API server. */
  emulator?: Emulator;
  close(): Promise<void>;
}

export const DEFAULT_KEY = 'demo-pro';

export async function openSession(opts: SessionOptions = {}): Promise<Session> {
  const emulator = opts.apiUrl ? undefined : await startEmulator(opts.emulator ?? {});
  const keys = new MemoryKeyStore(opts.key === undefined ? DEFAULT_KEY : opts.key);
  const now = opts.client?.now ?? (emulator ? () => emulator.clock.now() : undefined);
  const client = new MarketClient({
    // One deadline: the host's for each formula call, the client's for each request.
    ...(opts.host?.deadlineMs !== undefined ? { requestDeadlineMs: opts.host.deadlineMs } : {}),
    ...opts.client,
    ...(now ? { now } : {}),
    baseUrl: opts.apiUrl ?? emulator!.url,
    keyStore: keys,
    storage: opts.storage ?? new MemoryKvStore(),
  });
  const behaviour = { ...EXCEL_WEB, ...opts.workbook };
  const host = new WorkbookHost({ ...opts.host, client, catalog: CATALOG, settings: opts.settings, now }, behaviour, await loadFunctionMetadata());
  return {
    client,
    host,
    keys,
    emulator,
    close: async () => {
      await emulator?.close();
    },
  };
}
