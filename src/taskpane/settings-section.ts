/**
 * Settings: the form, filled from the runtime's settings; Apply saves them on
 * this computer and rebuilds the runtime (applySettings), which re-attaches
 * every section.
 */
import { applySettings, type Runtime } from '../office/runtime';
import { DEFAULT_API_BASE_URL, DEMO_BUILD, OFFICIAL_API_BASE_URL, saveSettings } from '../office/settings';
import { busy, el, isBusy, show } from './dom';
import { hostOf } from './format';
import { parseSettingsForm, toFormValues, type SettingsFormValues } from './settings-form';

/** Each form value's input. */
const FIELDS: Record<keyof SettingsFormValues, string> = {
  defaultCurrency: 'set-currency',
  liveFreshnessSeconds: 'set-fresh',
  dailyCreditBudget: 'set-budget',
  apiBaseUrl: 'set-base',
};

export class SettingsSection {
  #rt!: Runtime;

  constructor() {
    el('settings-form').addEventListener('submit', (e) => void this.#apply(e));
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
    custom.textContent = isCustom ? `Using a custom API address: ${hostOf(base)} (Settings, Advanced).` : '';
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
    const button = el('apply-settings');
    if (isBusy(button)) return;
    busy(button, true);
    try {
      const saved = await saveSettings(this.#rt.store, parsed.settings);
      await applySettings(saved); // onRuntimeChanged re-attaches every section
      show(el('settings-message'), {
        tone: 'success',
        text: 'Settings saved on this computer. The cache and usage counts start afresh; use Refresh all data to apply them to existing cells.',
      });
    } catch (e) {
      show(el('settings-message'), { tone: 'error', text: `Settings not saved: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      busy(button, false);
    }
  }
}
