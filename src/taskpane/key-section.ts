/**
 * The key: read from the input once on Save, checked with a throw-away client
 * (free /v3/status), written to its own storage entry, and the input cleared.
 * Only a masked form is ever put in the page.
 */
import { MarketClient, MemoryKeyStore, type AccountStatus } from '../client';
import type { Runtime } from '../office/runtime';
import { busy, el, isBusy, show } from './dom';
import { maskKey } from './format';
import { keyCheckOutcome } from './messages';
import type { PlanSection } from './plan-section';

/** The key check: one retry, short timeout, so the answer comes quickly. */
const KEY_CHECK_TIMEOUT_MS = 10_000;

export class KeySection {
  #rt!: Runtime;
  readonly #plan: PlanSection;

  constructor(plan: PlanSection) {
    this.#plan = plan;
    el('key-form').addEventListener('submit', (e) => void this.#save(e));
    el('remove-key').addEventListener('click', () => void this.#remove());
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
    const checker = new MarketClient({ baseUrl, keyStore: new MemoryKeyStore(candidate), maxRetries: 1, timeoutMs: KEY_CHECK_TIMEOUT_MS });
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
    show(el('key-message'), { tone: 'info', text: 'Key removed from this computer. Formulas show #N/A until you add a key.' });
    el<HTMLInputElement>('key-input').focus();
  }
}
