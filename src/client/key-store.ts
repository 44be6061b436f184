/**
 * Where the API key lives: per user per machine (OfficeRuntime.storage,
 * localStorage...), never in the workbook. The client reads it at request time
 * only, so a key change applies to the next request.
 */
export interface KeyStore {
  getKey(): Promise<string | null>;
}

export class MemoryKeyStore implements KeyStore {
  #key: string | null;
  constructor(key: string | null = null) {
    this.#key = normalizeKey(key);
  }
  setKey(k: string | null): void {
    this.#key = normalizeKey(k);
  }
  async getKey(): Promise<string | null> {
    return this.#key;
  }
}

/** Blank keys count as no key. */
export function normalizeKey(k: string | null | undefined): string | null {
  const t = typeof k === 'string' ? k.trim() : '';
  return t === '' ? null : t;
}
