/**
 * The key: read from the input once on Save, checked with a throw-away client
 * (free /v3/status), written to its own storage entry, and the input cleared.
 * Only a masked form is ever put in the page.
 */
import { MarketClient, MemoryKeyStore, type AccountStatus } from '../client';
import { DOCUMENT_SETTINGS, readSetting } from '../office/document';
import type { Runtime } from '../office/runtime';
import { cryptoCells, type CryptoCell } from '../office/workbook-cells';
import { busy, el, isBusy, show } from './dom';
import { leftAlone, reenterFormulas } from './excel';
import { formatInt, maskKey } from './format';
import { keyCheckOutcome, type Message } from './messages';
import type { PlanSection } from './plan-section';
import type { UsageSection } from './usage-section';
import { cellRefreshEstimate, creditsRemaining } from './view-model';

const cellsText = (n: number) => `${n} CRYPTO ${n === 1 ? 'cell' : 'cells'}`;

/** The key check: one retry, short timeout, so the answer comes quickly. */
const KEY_CHECK_TIMEOUT_MS = 10_000;

export class KeySection {
  #rt!: Runtime;
  readonly #plan: PlanSection;
  readonly #usage: UsageSection;
  readonly #inExcel: Promise<boolean>;
  /** Cells waiting for the user's yes before a refresh that costs more than a few credits. */
  #pending: CryptoCell[] = [];

  constructor(plan: PlanSection, usage: UsageSection, inExcel: Promise<boolean>) {
    this.#plan = plan;
    this.#usage = usage;
    this.#inExcel = inExcel;
    el('key-form').addEventListener('submit', (e) => void this.#save(e));
    el('remove-key').addEventListener('click', () => void this.#remove());
    el('key-refresh-go').addEventListener('click', () => void this.#refreshPending());
    el('key-refresh-later').addEventListener('click', () => {
      this.#pending = [];
      el('key-refresh').hidden = true;
      show(el('key-message'), { tone: 'info', text: 'The CRYPTO cells keep what they show until they next calculate (Refresh all data).' });
    });
  }

  attach(rt: Runtime): void {
    this.#rt = rt;
  }

  async render(): Promise<boolean> {
    const key = await this.#rt.keys.getKey();
    const has = Boolean(key && key.trim());
    el('key-saved').hidden = !has;
    el('key-mask').textContent = has ? maskKey(key) : '';
    el('key-help').textContent = has
      ? 'Paste a new key to replace the saved one. Kept for your user on this computer only, never in the workbook.'
      : 'Kept for your user on this computer only, never in the workbook. Saving checks it with CryptoRank (free).';
    return has;
  }

  async #save(ev: Event): Promise<void> {
    ev.preventDefault();
    const rt = this.#rt;
    const input = el<HTMLInputElement>('key-input');
    const button = el<HTMLButtonElement>('save-key');
    const message = el('key-message');
    if (isBusy(button)) return;
    const candidate = input.value.trim();
    if (!candidate) {
      show(message, { tone: 'error', text: 'Paste your API key into the box first.' });
      input.focus();
      return;
    }
    busy(button, true);
    show(message, { tone: 'info', text: 'Checking the key with CryptoRank…' });
    const baseUrl = rt.settings.apiBaseUrl;
    const checker = new MarketClient({ baseUrl, keyStore: new MemoryKeyStore(candidate), maxRetries: 1, sharedMaxRetries: 1, timeoutMs: KEY_CHECK_TIMEOUT_MS });
    let result: AccountStatus | { error: unknown };
    try {
      result = await checker.status({ force: true });
    } catch (error) {
      result = { error };
    }
    const outcome = keyCheckOutcome(result, baseUrl);
    try {
      if (outcome.save) {
        await rt.keys.setKey(candidate);
        rt.client.onKeyChanged();
        rt.host.clearLastGood();
        input.value = '';
        await this.render();
        if ('error' in result) this.#plan.showError(result.error);
        else this.#plan.set(result);
        this.#usage.keySaved();
        show(message, outcome);
        show(message, await this.#afterKeyChange(outcome, 'error' in result ? null : result));
        return;
      } else {
        input.select();
      }
      show(message, outcome);
    } finally {
      busy(button, false);
    }
  }

  async #remove(): Promise<void> {
    const rt = this.#rt;
    await rt.keys.setKey(null);
    rt.client.onKeyChanged();
    rt.host.clearLastGood();
    await this.render();
    this.#plan.set(null);
    const removed: Message = { tone: 'info', text: 'Key removed from this computer. Formulas show #N/A until you add a key.' };
    show(el('key-message'), removed);
    el<HTMLInputElement>('key-input').focus();
    // Without a key nothing is fetched: the cells show it at once, free.
    const cells = await this.#cells();
    if (cells.length === 0) return;
    try {
      const { entered, changed } = await reenterFormulas(cells);
      show(el('key-message'), { tone: changed.length ? 'warning' : 'info', text: `Key removed from this computer. The ${cellsText(entered.length)} now show #N/A until you add a key.${leftAlone(changed)}` });
    } catch (e) {
      show(el('key-message'), { tone: 'warning', text: `${removed.text} Excel could not recalculate the cells: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  /** The workbook's CRYPTO cells, in Excel; none outside it. */
  async #cells(): Promise<CryptoCell[]> {
    if (!(await this.#inExcel)) return [];
    try {
      return await cryptoCells('workbook');
    } catch {
      return [];
    }
  }

  /** A key was saved: its cells calculate with it, at once when cheap, after a yes when not (Refresh all data's rule). */
  async #afterKeyChange(outcome: Message, status: AccountStatus | null): Promise<Message> {
    const cells = await this.#cells();
    if (cells.length === 0) return outcome;
    const last = readSetting<number>(DOCUMENT_SETTINGS.refreshCredits);
    const est = cellRefreshEstimate(this.#rt.client.meter.snapshot(), new Set(cells.map((c) => c.formula)).size, typeof last === 'number' ? last : null, creditsRemaining(status));
    if (est.confirm) {
      this.#pending = cells;
      el('key-refresh-text').textContent = `Refresh the ${cellsText(cells.length)} with this key? It may spend about ${formatInt(est.credits)} credits (estimated from ${est.basis}).`;
      el('key-refresh').hidden = false;
      return outcome;
    }
    try {
      const { entered, changed } = await reenterFormulas(cells);
      return { tone: changed.length ? 'warning' : outcome.tone, text: `${outcome.text} The ${cellsText(entered.length)} are refreshing with it.${leftAlone(changed)}` };
    } catch (e) {
      return { tone: 'warning', text: `${outcome.text} Excel could not recalculate the cells: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  async #refreshPending(): Promise<void> {
    const cells = this.#pending;
    this.#pending = [];
    el('key-refresh').hidden = true;
    try {
      const { entered, changed } = await reenterFormulas(cells);
      show(el('key-message'), { tone: changed.length ? 'warning' : 'success', text: `The ${cellsText(entered.length)} are refreshing with the new key.${leftAlone(changed)}` });
    } catch (e) {
      show(el('key-message'), { tone: 'error', text: `Excel could not recalculate the cells: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
}
