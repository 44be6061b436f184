/**
 * This workbook: what the current runtime's client spent (by formula), the
 * coins chosen for ambiguous symbols and the recent errors. Follows the
 * runtime's meter and error log; applySettings builds new ones.
 */
import { serialIn, toSerial } from '../formulas/cells';
import type { Runtime } from '../office/runtime';
import { readFormulas, splitAddress, writeSheet } from '../office/workbook-cells';
import { LOG_FORMATS, LOG_SHEET, logRows } from './answer-log';
import { busy, el, isBusy, show } from './dom';
import { currentErrors, errorWords } from './error-words';
import { formatInt, formatTime } from './format';
import type { PlanSection } from './plan-section';
import { throttle } from './throttle';
import { ambiguityRows, errorRows, spendSignature, usageView } from './view-model';

const USAGE_RENDER_MS = 250;

function cell(tag: 'td' | 'th', text: string, className?: string): HTMLElement {
  const c = document.createElement(tag);
  c.textContent = text;
  if (className) c.className = className;
  return c;
}

export class UsageSection {
  #rt!: Runtime;
  #lastSpend = '';
  #unsubscribe: () => void = () => {};
  readonly #plan: PlanSection;
  readonly #renderSoon = throttle(() => this.render(), USAGE_RENDER_MS);
  readonly #inExcel: Promise<boolean>;
  /** When a key was last saved: errors about the key from before it are gone. */
  #keySavedAt: number | null = null;

  constructor(plan: PlanSection, inExcel: Promise<boolean>) {
    this.#plan = plan;
    this.#inExcel = inExcel;
    el('log-go').addEventListener('click', () => void this.#writeLog());
  }

  /** A key was saved: the errors it fixes are gone. */
  keySaved(at = Date.now()): void {
    this.#keySavedAt = at;
    this.render();
  }

  attach(rt: Runtime): void {
    this.#rt = rt;
    this.#subscribe(rt);
    this.render();
  }

  #subscribe(r: Runtime): void {
    this.#unsubscribe();
    this.#lastSpend = spendSignature(r.client.meter.snapshot());
    const onMeter = () => {
      this.#renderSoon();
      const sig = spendSignature(r.client.meter.snapshot());
      if (sig !== this.#lastSpend) {
        this.#lastSpend = sig;
        this.#plan.refreshSoon();
      }
    };
    r.client.meter.addEventListener('change', onMeter);
    r.host.addEventListener('error-logged', this.#renderSoon);
    r.host.provenance.addEventListener('recorded', this.#renderSoon);
    this.#unsubscribe = () => {
      r.client.meter.removeEventListener('change', onMeter);
      r.host.removeEventListener('error-logged', this.#renderSoon);
      r.host.provenance.removeEventListener('recorded', this.#renderSoon);
    };
  }

  render(): void {
    const rt = this.#rt;
    const v = usageView(rt.client.meter.snapshot());
    el('usage-since').textContent = `Since ${formatTime(v.since)}, when the add-in started (or its settings last changed).`;
    el('usage-credits').textContent = formatInt(v.credits);
    el('usage-requests').textContent = formatInt(v.requests);
    el('usage-cache').textContent = formatInt(v.cacheHits);
    el('usage-shared').textContent = formatInt(v.sharedCalls);
    this.#renderBudget();
    el('usage-rows').replaceChildren(
      ...v.rows.map((r) => {
        const tr = document.createElement('tr');
        tr.append(cell('th', r.label), cell('td', formatInt(r.requests), 'num'), cell('td', formatInt(r.credits), 'num'));
        tr.firstElementChild?.setAttribute('scope', 'row');
        return tr;
      }),
    );
    el('usage-table').hidden = v.rows.length === 0;
    el('usage-empty').hidden = v.rows.length > 0;
    this.#renderAmbiguities();
    this.#renderErrors();
  }

  #renderBudget(): void {
    const budget = this.#rt.settings.dailyCreditBudget;
    const budgetEl = el('usage-budget');
    budgetEl.hidden = budget === null;
    if (budget === null) return;
    const spent = this.#rt.client.meter.creditsToday();
    budgetEl.textContent = `Daily budget: ${formatInt(spent)} of ${formatInt(budget)} credits spent today by this add-in${spent >= budget ? '; formulas have stopped calling the API until tomorrow (UTC)' : ''}.`;
  }

  #renderAmbiguities(): void {
    const amb = ambiguityRows(this.#rt.client.ambiguities);
    el('ambiguities').replaceChildren(
      ...amb.map((a) => {
        const li = document.createElement('li');
        const head = document.createElement('div');
        const strong = document.createElement('strong');
        strong.textContent = `"${a.input}"`;
        head.append(strong, document.createTextNode(` is ${a.chosen}`));
        li.append(head);
        if (a.alternatives) {
          const alt = document.createElement('div');
          alt.className = 'hint';
          alt.textContent = `Also: ${a.alternatives}. Use a slug or id to choose another.`;
          li.append(alt);
        }
        return li;
      }),
    );
    el('ambiguities-empty').hidden = amb.length > 0;
  }

  /** When this formula last answered without an error (fresh or from the cache). */
  #lastSuccess(formula: string): number | null {
    const p = this.#rt.host.provenance.recent().find((x) => x.formula === formula && x.error === null && x.freshness !== 'stale');
    return p ? p.time : null;
  }

  #renderErrors(): void {
    const now = Date.now();
    const errors = errorRows(currentErrors(this.#rt.host.errors(), { keySavedAt: this.#keySavedAt, now, lastSuccess: (f) => this.#lastSuccess(f) }));
    el('errors').replaceChildren(
      ...errors.map((e) => {
        const li = document.createElement('li');
        const meta = document.createElement('div');
        meta.className = 'meta';
        const time = document.createElement('time');
        time.dateTime = new Date(e.time).toISOString();
        time.textContent = formatTime(e.time);
        const formula = document.createElement('span');
        formula.textContent = e.formula;
        const code = document.createElement('span');
        code.className = 'code';
        code.textContent = errorWords(e.code);
        meta.append(time, formula, code);
        const msg = document.createElement('div');
        msg.textContent = e.message;
        li.append(meta, msg);
        return li;
      }),
    );
    el('errors-empty').hidden = errors.length > 0;
  }

  /** "Write log to sheet": the recent answers on a sheet of their own (answer-log.ts). */
  async #writeLog(): Promise<void> {
    const button = el('log-go');
    const message = el('log-message');
    if (isBusy(button)) return;
    const entries = this.#rt.host.provenance.recent();
    if (entries.length === 0) {
      show(message, { tone: 'info', text: 'No answers yet: the log fills as CRYPTO formulas calculate.' });
      return;
    }
    if (!(await this.#inExcel)) {
      show(message, { tone: 'info', text: 'Not running inside Excel: there is no sheet to write to.' });
      return;
    }
    busy(button, true);
    try {
      const addresses = [...new Set(entries.flatMap((p) => p.addresses))];
      const formulas = await readFormulas(addresses.map(splitAddress)).catch(() => addresses.map(() => ''));
      const byAddress = new Map(addresses.map((a, i) => [a, typeof formulas[i] === 'string' && String(formulas[i]).startsWith('=') ? String(formulas[i]) : undefined]));
      const system = await this.#rt.dateSystem.read();
      const rows = logRows(entries, (a) => byAddress.get(a), (ms) => serialIn(toSerial(ms), system));
      const at = await writeSheet(LOG_SHEET, rows, LOG_FORMATS);
      show(message, { tone: 'success', text: `Wrote ${rows.length - 1} ${rows.length === 2 ? 'answer' : 'answers'} to ${LOG_SHEET}!${at}.` });
    } catch (e) {
      show(message, { tone: 'error', text: `The log was not written: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      busy(button, false);
    }
  }
}
