/**
 * The formula builder's coin box: an ARIA combobox over the coin search
 * (coin-search.ts). It reads the coin list once, through the client
 * (office/coin-directory.ts), lists the candidates as the user types, and
 * picks one by click, Enter or the arrow keys. The formula form
 * (builder-section.ts) hears of each change through CoinPickerEvents.
 */
import { hasCode } from '../client/api-error';
import { loadCoinDirectory, type CoinDirectory } from '../office/coin-directory';
import type { Runtime } from '../office/runtime';
import { candidateLabel, searchCoins, sharedSymbolNote, type Candidate } from '../formulas/coin-search';
import { el } from './dom';

const SEARCH_DELAY_MS = 80;

/** What the formula form hears from the coin box. */
export interface CoinPickerEvents {
  /** Text typed: the coin picked before, if any, is dropped. */
  typed(): void;
  /** The box left. */
  left(): void;
  /** A coin picked from the list. */
  picked(): void;
}

export class CoinPicker {
  #rt!: Runtime;
  #directory: Promise<CoinDirectory> | null = null;
  #coins: CoinDirectory | null = null;
  #coin: Candidate | null = null;
  #candidates: Candidate[] = [];
  #active = -1;
  #searchTimer: ReturnType<typeof setTimeout> | null = null;
  /** Why the coin search could not run (no key, the list unreadable): shown in place of the coin's error. */
  #searchError = '';
  readonly #events: CoinPickerEvents;

  constructor(events: CoinPickerEvents) {
    this.#events = events;
    const input = el<HTMLInputElement>('coin-input');
    input.addEventListener('input', () => this.#onType());
    input.addEventListener('keydown', (e) => this.#onKey(e));
    input.addEventListener('blur', () => {
      this.#events.left();
      setTimeout(() => this.#close(), 150);
    });
    el('coin-list').addEventListener('mousedown', (e) => {
      const li = (e.target as HTMLElement).closest('li');
      if (!li?.dataset.index) return;
      e.preventDefault();
      this.#pick(Number(li.dataset.index));
    });
  }

  attach(rt: Runtime): void {
    this.#rt = rt;
  }

  /** The coin picked from the list; null once the text changes. */
  get picked(): Candidate | null {
    return this.#coin;
  }

  /** The coin list, once read. */
  get directory(): CoinDirectory | null {
    return this.#coins;
  }

  /** Why the search could not run, or ''. */
  get searchError(): string {
    return this.#searchError;
  }

  #directoryReady(): Promise<CoinDirectory> {
    this.#directory ??= loadCoinDirectory(this.#rt).then(
      (d) => (this.#coins = d),
      (e: unknown) => {
        this.#directory = null;
        throw e;
      },
    );
    return this.#directory;
  }

  #onType(): void {
    this.#coin = null;
    this.#searchError = '';
    el('coin-error').textContent = '';
    this.#events.typed();
    if (this.#searchTimer) clearTimeout(this.#searchTimer);
    this.#searchTimer = setTimeout(() => void this.#search(), SEARCH_DELAY_MS);
  }

  async #search(): Promise<void> {
    const text = el<HTMLInputElement>('coin-input').value;
    const note = el('coin-note');
    if (!this.#coins) note.textContent = 'Reading the coin list…';
    let d: CoinDirectory;
    try {
      d = await this.#directoryReady();
    } catch (e) {
      note.textContent = '';
      this.#searchError =
        hasCode(e, 'NO_API_KEY', 'API_KEY_MISSING') ? 'Add your API key above to search coins.' : `The coin list could not be read: ${e instanceof Error ? e.message : String(e)}`;
      el('coin-error').textContent = this.#searchError;
      return;
    }
    if (el<HTMLInputElement>('coin-input').value !== text) return; // typed on meanwhile
    this.#candidates = searchCoins(d.coins, d.rank, text);
    this.#active = this.#candidates.length > 0 ? 0 : -1;
    note.textContent = sharedSymbolNote(this.#candidates, text) ?? (text.trim() && this.#candidates.length === 0 ? 'No coin matches.' : '');
    this.#renderList();
  }

  #renderList(): void {
    const list = el('coin-list');
    const input = el('coin-input');
    list.replaceChildren(
      ...this.#candidates.map((c, i) => {
        const li = document.createElement('li');
        li.id = `coin-option-${i}`;
        li.setAttribute('role', 'option');
        li.setAttribute('aria-selected', String(i === this.#active));
        li.dataset.index = String(i);
        li.setAttribute('aria-label', candidateLabel(c));
        const name = document.createElement('span');
        name.textContent = `${c.name}${c.symbol ? ` (${c.symbol})` : ''}`;
        const sub = document.createElement('span');
        sub.className = 'sub';
        sub.textContent = `${c.slug} · ${c.rank === null ? 'unranked' : `rank ${c.rank}`}${c.sharedSymbol ? ' · symbol shared' : ''}`;
        li.append(name, sub);
        return li;
      }),
    );
    const open = this.#candidates.length > 0;
    list.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (open && this.#active >= 0) input.setAttribute('aria-activedescendant', `coin-option-${this.#active}`);
    else input.removeAttribute('aria-activedescendant');
  }

  #close(): void {
    el('coin-list').hidden = true;
    el('coin-input').setAttribute('aria-expanded', 'false');
    el('coin-input').removeAttribute('aria-activedescendant');
  }

  #onKey(e: KeyboardEvent): void {
    const n = this.#candidates.length;
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      if (n === 0) return;
      e.preventDefault();
      this.#active = (this.#active + (e.key === 'ArrowDown' ? 1 : n - 1)) % n;
      this.#renderList();
    } else if (e.key === 'Enter') {
      if (this.#active >= 0 && !el('coin-list').hidden) {
        e.preventDefault();
        this.#pick(this.#active);
      }
    } else if (e.key === 'Escape') {
      this.#close();
    }
  }

  #pick(i: number): void {
    const c = this.#candidates[i];
    if (!c) return;
    this.#coin = c;
    el<HTMLInputElement>('coin-input').value = `${c.name}${c.symbol ? ` (${c.symbol})` : ''}`;
    el('coin-note').textContent = `${candidateLabel(c)}. The formula names it "${c.slug}".`;
    el('coin-error').textContent = '';
    this.#close();
    this.#events.picked();
  }
}
