/**
 * "Refresh when this workbook opens": the checkbox sets the add-in to load
 * with this workbook (Office.addin.setStartupBehavior) and a document setting;
 * when the add-in starts in a workbook that has it on, its CRYPTO cells
 * calculate again, once, within the budget (open-refresh.ts decides). What a
 * refresh spent is kept in the workbook as the next one's estimate.
 */
import { DOCUMENT_SETTINGS, canLoadOnOpen, hasDocumentSettings, readSetting, setLoadOnOpen, writeSettings } from '../office/document';
import type { Runtime } from '../office/runtime';
import { cryptoCells } from '../office/workbook-cells';
import { el, show } from './dom';
import { leftAlone, reenterFormulas, refreshSpent } from './excel';
import { openRefreshDecision, openRefreshDone } from './open-refresh';
import type { PlanSection } from './plan-section';

export class OpenRefreshSection {
  #rt!: Runtime;
  readonly #inExcel: Promise<boolean>;
  readonly #plan: PlanSection;

  constructor(plan: PlanSection, inExcel: Promise<boolean>) {
    this.#plan = plan;
    this.#inExcel = inExcel;
    el<HTMLInputElement>('open-refresh').addEventListener('change', (e) => void this.#toggle((e.target as HTMLInputElement).checked));
  }

  attach(rt: Runtime): void {
    this.#rt = rt;
    void this.#inExcel.then((excel) => {
      const box = el<HTMLInputElement>('open-refresh');
      const usable = excel && hasDocumentSettings() && canLoadOnOpen();
      box.disabled = !usable;
      box.checked = usable && readSetting(DOCUMENT_SETTINGS.refreshOnOpen) === true;
      if (!usable && excel) show(el('open-refresh-message'), { tone: 'info', text: 'This version of Office cannot load the add-in when a workbook opens (it needs SharedRuntime 1.1).' });
      // Once per start of the add-in's runtime (that is a workbook opening), not per settings change.
      if (usable && !rt.opening.refreshChecked) {
        rt.opening.refreshChecked = true;
        void this.#onOpen();
      }
    });
  }

  async #toggle(on: boolean): Promise<void> {
    const box = el<HTMLInputElement>('open-refresh');
    const message = el('open-refresh-message');
    try {
      await setLoadOnOpen(on);
      await writeSettings({ [DOCUMENT_SETTINGS.refreshOnOpen]: on ? true : null });
      const last = readSetting<number>(DOCUMENT_SETTINGS.refreshCredits);
      show(message, on
        ? {
            tone: 'success',
            text: `On for this workbook: from its next opening, its CRYPTO cells refresh${typeof last === 'number' ? ` (about ${last} credits, what the last refresh spent)` : ''}, within your daily budget. Save the workbook to keep it. Turn it off before sending the workbook to someone without the add-in: Excel may tell them the add-in could not load.`,
          }
        : { tone: 'info', text: 'Off: this workbook opens with the values saved in it.' });
    } catch (e) {
      box.checked = !on;
      show(message, { tone: 'error', text: `Not changed: ${e instanceof Error ? e.message : String(e)}` });
    }
  }

  /** The workbook has just opened with the add-in loading: refresh its CRYPTO cells if it asks and the budget allows. */
  async #onOpen(): Promise<void> {
    if (readSetting(DOCUMENT_SETTINGS.refreshOnOpen) !== true) return;
    const rt = this.#rt;
    const message = el('open-refresh-message');
    try {
      const cells = await cryptoCells('workbook');
      const key = await rt.keys.getKey();
      let dailyRemaining: number | null = null;
      if (key) {
        try {
          const s = await rt.client.status();
          this.#plan.set(s);
          dailyRemaining = s.credits.dailyRemaining;
        } catch {
          // the plan stays unknown; the budget still holds
        }
      }
      const lastCredits = readSetting<number>(DOCUMENT_SETTINGS.refreshCredits);
      const decision = openRefreshDecision({
        enabled: true,
        hasKey: Boolean(key),
        formulas: [...new Set(cells.map((c) => c.formula))],
        lastCredits: typeof lastCredits === 'number' && Number.isFinite(lastCredits) ? lastCredits : null,
        budget: rt.settings.dailyCreditBudget,
        spentToday: rt.client.meter.creditsToday(),
        dailyRemaining,
      });
      if (!decision.refresh) {
        show(message, decision.message);
        return;
      }
      const before = rt.client.meter.snapshot().credits;
      const { entered, changed } = await reenterFormulas(cells);
      const done = openRefreshDone(entered.length);
      show(message, changed.length ? { tone: 'warning', text: `${done.text}${leftAlone(changed)}` } : done);
      const spent = await refreshSpent(rt.client, before);
      if (spent !== null) await writeSettings({ [DOCUMENT_SETTINGS.refreshCredits]: spent }).catch(() => undefined);
    } catch (e) {
      show(message, openRefreshDone(0, e));
    }
  }
}
