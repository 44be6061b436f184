/**
 * A small persistent string store (OfficeRuntime.storage, localStorage, a file in
 * tests). The client keeps the currency map and learned ranks in it across
 * sessions. Implementations may fail; the client treats a failing store as empty.
 */
export interface KvStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

export class MemoryKvStore implements KvStore {
  readonly #items = new Map<string, string>();
  async get(key: string): Promise<string | null> {
    return this.#items.get(key) ?? null;
  }
  async set(key: string, value: string): Promise<void> {
    this.#items.set(key, value);
  }
  async remove(key: string): Promise<void> {
    this.#items.delete(key);
  }
  /** Keys held (for tests and diagnostics). */
  keys(): string[] {
    return [...this.#items.keys()];
  }
}
