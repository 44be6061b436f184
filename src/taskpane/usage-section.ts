/**
 * This workbook: what the current runtime's client spent (by formula), the
 * coins chosen for ambiguous symbols and the recent errors. Follows the
 * runtime's meter and error log; applySettings builds new ones.
 */
import type { Runtime } from '../office/runtime';
import { el } from './dom';
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

  constructor(plan: PlanSection) {
    this.#plan = plan;
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
    this.#unsubscribe = () => {
      r.client.meter.removeEventListener('change', onMeter);
      r.host.removeEventListener('error-logged', this.#renderSoon);
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

  #renderErrors(): void {
    const errors = errorRows(this.#rt.host.errors());
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
        code.textContent = e.code;
        meta.append(time, formula, code);
        const msg = document.createElement('div');
        msg.textContent = e.message;
        li.append(meta, msg);
        return li;
      }),
    );
    el('errors-empty').hidden = errors.length > 0;
  }
}
