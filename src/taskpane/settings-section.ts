/**
 * Settings: the form, filled from the runtime's settings; Apply saves them on
 * this computer and rebuilds the runtime (applySettings), which re-attaches
 * every section.
 */
import type { ConvertCurrency } from '../api/endpoints';
import { applySettings, type Runtime } from '../office/runtime';
import { DEFAULT_API_BASE_URL, DEMO_BUILD, OFFICIAL_API_BASE_URL, SETTINGS_RULES, saveSettings } from '../office/settings';
import { cryptoCells, type CryptoCell } from '../office/workbook-cells';
import { leftAlone, reenterFormulas } from './excel';
import { busy, el, isBusy, show } from './dom';
import { currencyOffer } from './currency-offer';
import { hostOf } from './format';
import { functionsMeta } from './functions-meta';
import { policyAllowsConnect } from './content-policy';
import { hostNeedingConsent, parseSettingsForm, toFormValues, type SettingsFormValues } from './settings-form';

/** What the page's own Content-Security-Policy says of reaching `url` (the production build allows only the API's origin). */
function unreachable(url: string): string {
  const policy = document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute('content') ?? null;
  const origin = new URL(url).origin;
  return policyAllowsConnect(policy, origin, location.origin) === false
    ? ` This build of the add-in can only reach its own API address (its security policy): requests to ${new URL(url).host} will be blocked.`
    : '';
}

/** The form's choices and limits from the one place they are decided (SETTINGS_RULES), not written again in the page. */
function applyRules(): void {
  el<HTMLSelectElement>('set-currency').replaceChildren(...SETTINGS_RULES.currencies.map((c) => new Option(c, c)));
  const { min, max } = SETTINGS_RULES.liveFreshnessSeconds;
  const fresh = el<HTMLInputElement>('set-fresh');
  fresh.min = String(min);
  fresh.max = String(max);
  el('set-fresh-hint').textContent = `Prices younger than this are reused without spending credits (${min} to ${max}).`;
}

/** Each form value's input. */
const FIELDS: Record<keyof SettingsFormValues, string> = {
  defaultCurrency: 'set-currency',
  liveFreshnessSeconds: 'set-fresh',
  dailyCreditBudget: 'set-budget',
  apiBaseUrl: 'set-base',
};

export class SettingsSection {
  #rt!: Runtime;
  readonly #inExcel: Promise<boolean>;
  /** Cells that show the old default currency until they calculate again. */
  #pending: CryptoCell[] = [];
  /** The API address the user agreed to send the key to (host-consent). */
  #consented: string | null = null;

  constructor(inExcel: Promise<boolean>) {
    this.#inExcel = inExcel;
    applyRules();
    el('settings-form').addEventListener('submit', (e) => void this.#apply(e));
    el('currency-refresh').addEventListener('click', () => void this.#refreshCurrencyCells());
    el('currency-later').addEventListener('click', () => {
      this.#pending = [];
      el('currency-change').hidden = true;
    });
    el('host-consent-yes').addEventListener('click', () => {
      this.#consented = el<HTMLInputElement>('set-base').dataset.asked ?? null;
      el('host-consent').hidden = true;
      el<HTMLFormElement>('settings-form').requestSubmit();
    });
    el('host-consent-no').addEventListener('click', () => {
      el('host-consent').hidden = true;
      show(el('settings-message'), { tone: 'info', text: 'Settings not saved: the API address was not changed.' });
      el('set-base').focus();
    });
  }

  attach(rt: Runtime): void {
    this.#rt = rt;
    this.#fill();
  }

  #fill(): void {
    const v = toFormValues(this.#rt.settings);
    for (const [field, id] of Object.entries(FIELDS) as [keyof SettingsFormValues, string][]) el<HTMLInputElement>(id).value = v[field];
    el('set-base-hint').textContent = DEMO_BUILD
      ? `Development build: the local API server (${DEFAULT_API_BASE_URL}). The official API is ${OFFICIAL_API_BASE_URL}.`
      : `Default: ${DEFAULT_API_BASE_URL}. Change only if told to.`;
    const custom = el('custom-api');
    const base = this.#rt.settings.apiBaseUrl;
    const isCustom = base !== DEFAULT_API_BASE_URL;
    custom.hidden = !isCustom;
    custom.textContent = isCustom ? `Using a custom API address: ${hostOf(base)} (Settings, Advanced).${unreachable(base)}` : '';
  }

  async #apply(ev: Event): Promise<void> {
    ev.preventDefault();
    const values = Object.fromEntries(
      (Object.entries(FIELDS) as [keyof SettingsFormValues, string][]).map(([field, id]) => [field, el<HTMLInputElement>(id).value]),
    ) as unknown as SettingsFormValues;
    const parsed = parseSettingsForm(values, DEFAULT_API_BASE_URL);
    for (const [field, id] of Object.entries(FIELDS) as [keyof SettingsFormValues, string][]) {
      const err = parsed.ok ? undefined : parsed.errors[field];
      const input = el(id);
      if (err) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
      const errEl = document.getElementById(`${id}-error`);
      if (errEl) errEl.textContent = err ?? '';
    }
    if (!parsed.ok) {
      const first = (Object.keys(FIELDS) as (keyof SettingsFormValues)[]).find((f) => parsed.errors[f]);
      if (first === 'apiBaseUrl') (el('advanced') as HTMLDetailsElement).open = true;
      if (first) el(FIELDS[first]).focus();
      show(el('settings-message'), { tone: 'error', text: 'Some settings need fixing: see the fields marked above.' });
      return;
    }
    // A new host for the key: asked first, in the pane; nothing is saved or sent until the user agrees.
    const host = hostNeedingConsent(parsed.settings.apiBaseUrl, this.#rt.settings.apiBaseUrl, DEFAULT_API_BASE_URL);
    if (host !== null && this.#consented !== parsed.settings.apiBaseUrl) {
      el<HTMLInputElement>('set-base').dataset.asked = parsed.settings.apiBaseUrl;
      el('host-consent-text').textContent =
        `Your API key will be sent to ${host} with every request. Send it there only if your API provider gave you this address.${unreachable(parsed.settings.apiBaseUrl)}`;
      el('host-consent').hidden = false;
      show(el('settings-message'), null);
      el('host-consent-yes').focus();
      return;
    }
    this.#consented = null;
    const button = el('apply-settings');
    if (isBusy(button)) return;
    busy(button, true);
    const before = this.#rt.settings.defaultCurrency;
    try {
      const saved = await saveSettings(this.#rt.store, parsed.settings);
      await applySettings(saved); // onRuntimeChanged re-attaches every section
      show(el('settings-message'), {
        tone: 'success',
        text: 'Settings saved on this computer. The cache and usage counts start afresh; use Refresh all data to apply them to existing cells.',
      });
      if (saved.defaultCurrency !== before) await this.#currencyChanged(before, saved.defaultCurrency);
      else el('currency-change').hidden = true;
    } catch (e) {
      show(el('settings-message'), { tone: 'error', text: `Settings not saved: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      busy(button, false);
    }
  }

  /** Which cells still show the old default currency (their answer, or only their money headers); the offer to refresh them. */
  async #currencyChanged(from: ConvertCurrency, to: ConvertCurrency): Promise<void> {
    if (!(await this.#inExcel)) return;
    try {
      const meta = await functionsMeta();
      const param = (name: string, param: string) => meta.functions.find((f) => f.id === name)?.parameters.findIndex((p) => p.name === param) ?? -1;
      const offer = currencyOffer(await cryptoCells('workbook'), param, from, to);
      this.#pending = offer?.cells ?? [];
      if (!offer) {
        el('currency-change').hidden = true;
        return;
      }
      el('currency-change-text').textContent = offer.text;
      el('currency-change').hidden = false;
    } catch {
      el('currency-change').hidden = true;
    }
  }

  async #refreshCurrencyCells(): Promise<void> {
    const cells = this.#pending;
    this.#pending = [];
    el('currency-change').hidden = true;
    try {
      const { entered, changed } = await reenterFormulas(cells);
      const n = entered.length;
      show(el('settings-message'), { tone: changed.length ? 'warning' : 'success', text: `${n} CRYPTO ${n === 1 ? 'cell is' : 'cells are'} refreshing in ${this.#rt.settings.defaultCurrency}.${leftAlone(changed)}` });
    } catch (e) {
      show(el('settings-message'), { tone: 'error', text: `Excel could not recalculate the cells: ${e instanceof Error ? e.message : String(e)}` });
    }
  }
}
