/**
 * Refresh: drop the cache and ask Excel to recalculate (all, or the active
 * sheet), after a cost estimate when it would spend more than a few credits.
 */
import { DOCUMENT_SETTINGS, hasDocumentSettings, writeSettings } from '../office/document';
import type { Runtime } from '../office/runtime';
import { busy, el, isBusy, show } from './dom';
import { recalculateActiveSheet, recalculateWorkbook, refreshSpent } from './excel';
import { formatInt } from './format';
import { refreshDoneMessage } from './messages';
import type { PlanSection } from './plan-section';
import { creditsLeftText, creditsRemaining, estimateRefresh, type RefreshMark } from './view-model';

type Scope = 'workbook' | 'sheet';

export class RefreshSection {
  #rt!: Runtime;
  #mark: RefreshMark | null = null;
  #pendingScope: Scope | null = null;
  readonly #plan: PlanSection;
  /** Whether Office reported Excel (known once Office.onReady answers). */
  readonly #inExcel: Promise<boolean>;

  constructor(plan: PlanSection, inExcel: Promise<boolean>) {
    this.#plan = plan;
    this.#inExcel = inExcel;
    void inExcel.then((excel) => (el('host-note').hidden = excel));
    el('refresh-all').addEventListener('click', () => this.#ask('workbook'));
    el('refresh-sheet').addEventListener('click', () => this.#ask('sheet'));
    el('refresh-go').addEventListener('click', () => void this.#refresh(this.#pendingScope ?? 'workbook'));
    el('refresh-cancel').addEventListener('click', () => {
      this.#hideConfirm();
      show(el('refresh-message'), { tone: 'info', text: 'Refresh cancelled: nothing was fetched.' });
      el('refresh-all').focus();
    });
    el('refresh-confirm').addEventListener('keydown', (e) => {
      if (e.key === 'Escape') el('refresh-cancel').click();
    });
  }

  attach(rt: Runtime): void {
    this.#rt = rt;
    this.#mark = null;
  }

  #hideConfirm(): void {
    this.#pendingScope = null;
    el('refresh-confirm').hidden = true;
  }

  #ask(scope: Scope): void {
    if (isBusy(el('refresh-all'))) return;
    const status = this.#plan.status;
    const est = estimateRefresh(this.#rt.client.meter.snapshot(), this.#mark, creditsRemaining(status));
    if (!est.confirm) {
      void this.#refresh(scope);
      return;
    }
    this.#pendingScope = scope;
    const left = status ? creditsLeftText(status, formatInt) : '';
    el('refresh-confirm-text').textContent =
      `${scope === 'workbook' ? 'Refreshing all data' : 'Refreshing the active sheet'} fetches everything again and may spend up to about ${formatInt(est.credits)} credits (estimated from ${est.basis}).${left}`;
    el('refresh-confirm').hidden = false;
    el('refresh-go').focus();
  }

  async #refresh(scope: Scope): Promise<void> {
    this.#hideConfirm();
    const rt = this.#rt;
    const buttons = [el('refresh-all'), el('refresh-sheet')];
    buttons.forEach((b) => busy(b, true));
    try {
      // All data includes the reference lists (the coin map): a bad one must not outlive the user's refresh.
      rt.client.refreshAll({ includeReference: scope === 'workbook' });
      rt.host.clearLastGood();
      const m = rt.client.meter.snapshot();
      this.#mark = { since: m.since, credits: m.credits };
      if (!(await this.#inExcel)) {
        show(el('refresh-message'), refreshDoneMessage(scope, false));
        return;
      }
      try {
        await (scope === 'workbook' ? recalculateWorkbook() : recalculateActiveSheet());
        show(el('refresh-message'), refreshDoneMessage(scope, true));
        // What a whole refresh spent is the estimate of the next one on open (open-section.ts).
        if (scope === 'workbook' && hasDocumentSettings()) {
          void refreshSpent(rt.client, m.credits).then((spent) =>
            spent === null ? undefined : writeSettings({ [DOCUMENT_SETTINGS.refreshCredits]: spent }).catch(() => undefined),
          );
        }
      } catch (e) {
        show(el('refresh-message'), refreshDoneMessage(scope, true, e));
      }
    } finally {
      buttons.forEach((b) => busy(b, false));
    }
  }
}
