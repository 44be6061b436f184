/**
 * Per-user, per-machine storage in the shared runtime: OfficeRuntime.storage
 * where Office provides it, else the page's localStorage (a browser outside
 * Excel, and the tests). Never Office.context.document.settings, which is saved
 * inside the workbook and travels with it.
 */
import type { KeyStore, KvStore } from '../client';

export class RuntimeKvStore implements KvStore {
  private readonly prefix = 'crypto-addin:';

  private get office(): OfficeRuntime.Storage | null {
    return typeof OfficeRuntime !== 'undefined' && OfficeRuntime.storage ? OfficeRuntime.storage : null;
  }

  async get(key: string): Promise<string | null> {
    const office = this.office;
    if (office) return (await office.getItem(this.prefix + key)) ?? null;
    return globalThis.localStorage?.getItem(this.prefix + key) ?? null;
  }

  async set(key: string, value: string): Promise<void> {
    const office = this.office;
    if (office) return office.setItem(this.prefix + key, value);
    globalThis.localStorage?.setItem(this.prefix + key, value);
  }

  async remove(key: string): Promise<void> {
    const office = this.office;
    if (office) return office.removeItem(this.prefix + key);
    globalThis.localStorage?.removeItem(this.prefix + key);
  }
}

const KEY_ENTRY = 'apiKey';

/** The user's API key, in its own storage entry. */
export class StoredKeyStore implements KeyStore {
  constructor(private readonly store: KvStore) {}
  getKey(): Promise<string | null> {
    return this.store.get(KEY_ENTRY);
  }
  async setKey(key: string | null): Promise<void> {
    if (key) await this.store.set(KEY_ENTRY, key);
    else await this.store.remove(KEY_ENTRY);
  }
}
