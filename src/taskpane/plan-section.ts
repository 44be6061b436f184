/**
 * Plan and credits: the last /v3/status answer (free), re-read after the
 * formulas spent something. Only the newest answer is shown.
 */
import type { AccountStatus } from '../client';
import type { Runtime } from '../office/runtime';
import { el, show } from './dom';
import { formatDateTime, formatInt, formatRelative, formatTime } from './format';
import { statusErrorMessage } from './messages';
import { throttle } from './throttle';
import { planView, type CreditGauge } from './view-model';

/** Plan and credits are re-read (free) at most this often after the formulas spent something. */
const STATUS_REFRESH_MS = 2_000;

export class PlanSection {
  #rt!: Runtime;
  #status: AccountStatus | null = null;
  #statusAt = 0;
  #seq = 0;
  /** Re-read soon (throttled): the formulas spent credits. */
  readonly refreshSoon = throttle(() => void this.refresh(true), STATUS_REFRESH_MS);

  /** What the plan panel shows now (the refresh estimate compares with what is left today). */
  get status(): AccountStatus | null {
    return this.#status;
  }

  attach(rt: Runtime): void {
    this.#rt = rt;
    this.#status = null;
    void this.refresh(false);
  }

  /** A status read elsewhere (the key check) or none (the key removed). */
  set(status: AccountStatus | null): void {
    this.#status = status;
    if (status) this.#statusAt = Date.now();
    this.render();
  }

  showError(error: unknown): void {
    this.#status = null;
    el('plan-body').hidden = true;
    show(el('plan-message'), statusErrorMessage(error, this.#rt.settings.apiBaseUrl));
  }

  /** Re-read /v3/status (free). */
  async refresh(force: boolean): Promise<void> {
    const seq = ++this.#seq;
    const key = await this.#rt.keys.getKey();
    if (!key) return this.set(null);
    try {
      const s = await this.#rt.client.status({ force });
      if (seq === this.#seq) this.set(s);
    } catch (e) {
      if (seq === this.#seq) this.showError(e);
    }
  }

  render(): void {
    const body = el('plan-body');
    const status = this.#status;
    if (!status) {
      body.hidden = true;
      void this.#rt.keys.getKey().then((k) => {
        if (!k && !this.#status) show(el('plan-message'), { tone: 'info', text: 'Add your API key to see your plan and credits.' });
      });
      return;
    }
    const now = Date.now();
    const v = planView(status, now);
    show(el('plan-message'), null);
    body.hidden = false;
    el('plan-name').textContent = v.plan;
    el('plan-rpm').textContent = formatInt(v.rateLimitPerMinute);
    // Daily figures only where the service reports them (older status shapes have none).
    el('daily').hidden = v.daily === null;
    if (v.daily) renderGauge('daily', v.daily, `resets ${formatRelative(v.dailyResetAt, now)} (00:00 UTC)`);
    renderGauge(
      'monthly',
      v.monthly,
      Number.isFinite(v.monthlyResetAt) ? `resets ${formatDateTime(v.monthlyResetAt)} (${formatRelative(v.monthlyResetAt, now)})` : 'reset date unknown',
    );
    el('plan-checked').textContent = `Checked at ${formatTime(this.#statusAt)}. Reading the plan costs no credits.`;
  }
}

function renderGauge(prefix: string, g: CreditGauge, resetText: string): void {
  el(`${prefix}-used`).textContent = formatInt(g.used);
  el(`${prefix}-limit`).textContent = formatInt(g.limit);
  el(`${prefix}-remaining`).textContent = formatInt(g.remaining);
  el(`${prefix}-reset`).textContent = resetText;
  const bar = el(`${prefix}-bar`);
  bar.setAttribute('aria-valuemax', String(g.limit));
  bar.setAttribute('aria-valuenow', String(g.used));
  bar.setAttribute('aria-valuetext', `${formatInt(g.used)} of ${formatInt(g.limit)} credits used`);
  bar.dataset.level = g.level;
  (bar.firstElementChild as HTMLElement).style.width = `${(g.fraction * 100).toFixed(2)}%`;
}
