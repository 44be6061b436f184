/**
 * Insert formula: a coin from the search (coin-picker.ts: the client's currency map, ranked),
 * a formula, its arguments as fields (formula-builder.ts: from functions.json,
 * checked by the formula's own argument readers), the formula text, its cost
 * by the endpoint table, a preview of its result on request, and Insert into
 * the active cell through the Excel API.
 *
 * A field's error shows once the user has edited or left that field, or
 * pressed Insert or Preview result (the constraint-validation pattern): a form
 * just opened, or a formula just chosen, shows what is required as a hint
 * (aria-required, "(optional)" on the others), not as an error.
 */
import { CATALOG } from '../formulas/catalog';
import helpIndex from '../help/areas.json';
import { toFormulaError } from '../formulas/failure';
import type { Runtime } from '../office/runtime';
import { insertFormula } from '../office/workbook-cells';
import { findCoin } from '../formulas/coin-search';
import { CoinPicker } from './coin-picker';
import { busy, el, isBusy, show } from './dom';
import { estimateCredits } from './builder-cost';
import { dryRun, planNote, type DryRun } from './builder-dry-run';
import {
  buildCall, builderFunctions, builderGroups, fieldsOf,
  type BuiltCall, type Field, type FormValues, type FunctionMeta, type FunctionsJson,
} from './formula-builder';
import { formatInt } from './format';
import { costText, fieldElement, renderResult } from './builder-view';
import { functionsMeta } from './functions-meta';

const CHECK_DELAY_MS = 150;

export interface BuilderCheck {
  built: BuiltCall;
  run: DryRun | null;
  credits: number;
}

export class BuilderSection {
  #rt!: Runtime;
  #meta: FunctionsJson | null = null;
  readonly #picker: CoinPicker;
  #fn: FunctionMeta | null = null;
  #fields: Field[] = [];
  #seq = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  #check: Promise<BuilderCheck | null> = Promise.resolve(null);
  /** The last check's outcome, shown again when a field is touched. */
  #last: BuilderCheck | null = null;
  /** Fields the user has edited or left ('coin' for the coin search); all of them once Insert or Preview was pressed. */
  #touched = new Set<string>();
  #submitted = false;
  readonly #inExcel: Promise<boolean>;

  constructor(inExcel: Promise<boolean>) {
    this.#inExcel = inExcel;
    this.#picker = new CoinPicker({
      typed: () => {
        this.#touched.add('coin');
        this.#scheduleCheck();
      },
      left: () => this.#touch('coin'),
      picked: () => this.#scheduleCheck(),
    });
    el<HTMLSelectElement>('formula-select').addEventListener('change', () => this.#chooseFormula());
    const fields = el('builder-fields');
    const fieldName = (e: Event) => (e.target as HTMLElement).id?.replace(/^bf-/, '') ?? '';
    for (const type of ['input', 'change']) {
      fields.addEventListener(type, (e) => {
        this.#touched.add(fieldName(e));
        this.#scheduleCheck();
      });
    }
    fields.addEventListener('focusout', (e) => this.#touch(fieldName(e)));
    el('builder-insert').addEventListener('click', () => void this.#insert());
    el('builder-try').addEventListener('click', () => void this.#tryIt());
  }

  attach(rt: Runtime): void {
    this.#rt = rt;
    this.#picker.attach(rt);
    if (!this.#meta) void this.#loadMeta();
    else this.#scheduleCheck();
  }

  async #loadMeta(): Promise<void> {
    try {
      this.#meta = await functionsMeta();
    } catch (e) {
      show(el('builder-message'), { tone: 'error', text: `The formula list could not be read: ${e instanceof Error ? e.message : String(e)}` });
      return;
    }
    const select = el<HTMLSelectElement>('formula-select');
    select.replaceChildren(
      ...builderGroups(this.#meta, helpIndex.areas).map((g) => {
        const group = document.createElement('optgroup');
        group.label = g.title;
        group.append(
          ...g.functions.map((f) => {
            const o = document.createElement('option');
            o.value = f.id;
            o.textContent = f.name;
            return o;
          }),
        );
        return group;
      }),
    );
    select.value = 'PRICE';
    this.#chooseFormula();
  }

  // ---------------------------------------------------------------- formula and fields

  #chooseFormula(): void {
    if (!this.#meta) return;
    const id = el<HTMLSelectElement>('formula-select').value;
    this.#fn = builderFunctions(this.#meta).find((f) => f.id === id) ?? null;
    if (!this.#fn) return;
    this.#fields = fieldsOf(this.#fn, this.#meta);
    // The new formula's fields start untouched; the coin box stays as the user left it.
    const coinTouched = this.#submitted || this.#touched.has('coin');
    this.#touched = new Set(coinTouched ? ['coin'] : []);
    this.#submitted = false;
    this.#last = null; // the last check was of the formula before: its errors are not this one's
    const coinField = this.#fields.find((f) => f.kind === 'coin' || f.kind === 'coins');
    if (coinField?.required) el('coin-input').setAttribute('aria-required', 'true');
    else el('coin-input').removeAttribute('aria-required');
    el('formula-desc').textContent = this.#fn.description;
    el('builder-fields').replaceChildren(...this.#fields.filter((f) => f.kind !== 'coin').map((f) => fieldElement(f)));
    el('coin-hint').textContent = this.#fields.some((f) => f.kind === 'coin' || f.kind === 'coins')
      ? 'A name, symbol or slug, e.g. sol. Searching spends no credits.'
      : `CRYPTO.${this.#fn.name} takes no coin.`;
    el('builder-result-wrap').hidden = true;
    this.#scheduleCheck();
  }

  #values(): FormValues {
    const v: FormValues = {};
    for (const f of this.#fields) {
      const input = document.getElementById(`bf-${f.name}`) as HTMLInputElement | HTMLSelectElement | null;
      if (!input) continue;
      v[f.name] = input instanceof HTMLSelectElement && input.multiple ? [...input.selectedOptions].map((o) => o.value) : input.value;
    }
    return v;
  }

  #scheduleCheck(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => {
      this.#timer = null;
      this.#check = this.#runCheck();
    }, CHECK_DELAY_MS);
  }

  /** The check now (Insert and Preview do not wait for the typing pause). */
  #checkNow(): Promise<BuilderCheck | null> {
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
      this.#check = this.#runCheck();
    }
    return this.#check;
  }

  async #runCheck(): Promise<BuilderCheck | null> {
    const fn = this.#fn;
    if (!fn || !this.#rt) return null;
    const seq = ++this.#seq;
    const built = buildCall(fn, this.#fields, this.#values(), this.#picker.picked);
    el('builder-text').textContent = built.text;
    let run: DryRun | null = null;
    if (Object.keys(built.errors).length === 0) {
      const coins = this.#picker.directory;
      const picked = this.#picker.picked;
      run = await dryRun(fn.id, CATALOG[fn.id], built.args, fn.parameters.map((p) => p.name), {
        settings: this.#rt.host.settings,
        now: () => Date.now(),
        client: this.#rt.client,
        resolve: (input) =>
          picked && String(input).toLowerCase() === picked.slug.toLowerCase() ? picked : coins ? findCoin(coins.coins, coins.rank, input) : null,
      });
    }
    if (seq !== this.#seq) return this.#check;
    const error = run?.error ?? null;
    const estimate = run && !error ? estimateCredits(run.requests, Date.now(), run.complete) : null;
    el('builder-cost').textContent = estimate ? costText(estimate.credits, estimate.exact, estimate.lines, planNote(run!.requests, this.#rt.client.meter.snapshot().plan?.plan)) : '';
    el('builder-cost').dataset.credits = estimate ? String(estimate.credits) : '';
    this.#last = { built, run, credits: estimate?.credits ?? 0 };
    this.#showErrors();
    return this.#last;
  }

  /** A field left: touched, its error (if any) shows now, without waiting for another check. */
  #touch(name: string): void {
    if (!name) return;
    this.#touched.add(name);
    this.#showErrors();
  }

  /** Whether a field's error is shown: touched, or Insert or Preview was pressed. */
  #shows(name: string): boolean {
    return this.#submitted || this.#touched.has(name);
  }

  /**
   * The last check's errors on the fields the user has touched (a field's
   * own reading first, then the formula's). The coin's error waits while a
   * coin is being searched (text typed, none picked yet, the box focused).
   */
  #showErrors(): void {
    const c = this.#last;
    if (!c) return;
    const error = c.run?.error ?? null;
    // aria-invalid="true", not a bare attribute: ARIA reads an empty value as false (WAI-ARIA 1.2, aria-invalid),
    // and the pane's red border matches [aria-invalid='true'] only, as the settings and snapshot fields set it.
    const mark = (input: Element | null, msg: string) => (msg ? input?.setAttribute('aria-invalid', 'true') : input?.removeAttribute('aria-invalid'));
    for (const f of this.#fields) {
      if (f.kind === 'coin') continue;
      const msg = !this.#shows(f.name) ? '' : (c.built.errors[f.name] ?? (error && error.field === f.name ? error.message : ''));
      const errEl = document.getElementById(`bf-${f.name}-error`);
      if (errEl) errEl.textContent = msg;
      mark(document.getElementById(`bf-${f.name}`), msg);
    }
    const input = el<HTMLInputElement>('coin-input');
    const searching = !this.#picker.picked && input.value.trim() !== '' && document.activeElement === input && !this.#submitted;
    const coinError =
      error && (error.field === 'coin' || error.field === 'coins') && !searching && (this.#shows('coin') || this.#shows('coins')) ? error.message : '';
    el('coin-error').textContent = this.#picker.searchError || coinError;
    mark(input, coinError);
    el('builder-error').textContent = error && !error.field ? `${error.code} ${error.message}` : '';
  }

  /** The first field the check found wrong, focused; false when none. */
  #focusProblem(c: BuilderCheck | null): boolean {
    if (!c) return true;
    const name = Object.keys(c.built.errors)[0] ?? c.run?.error?.field ?? (c.run?.error ? '' : null);
    if (name === null) return false;
    const target = name === 'coin' || name === 'coins' ? el('coin-input') : document.getElementById(`bf-${name}`) ?? el('formula-select');
    target.focus();
    return true;
  }

  async #insert(): Promise<void> {
    const button = el('builder-insert');
    if (isBusy(button)) return;
    this.#submitted = true;
    const c = await this.#checkNow();
    this.#showErrors();
    if (!c || this.#focusProblem(c)) {
      show(el('builder-message'), { tone: 'error', text: 'The formula needs fixing first: see the fields marked above.' });
      return;
    }
    if (!(await this.#inExcel)) {
      show(el('builder-message'), { tone: 'info', text: `Not running inside Excel: copy the formula into a cell. ${c.built.text}` });
      return;
    }
    busy(button, true);
    try {
      const at = await insertFormula(c.built.text);
      show(el('builder-message'), { tone: 'success', text: `Inserted into ${at.sheet}!${at.address}: ${c.built.text}` });
    } catch (e) {
      show(el('builder-message'), { tone: 'error', text: `Excel did not take the formula: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      busy(button, false);
    }
  }

  /** Preview result: the formula through the add-in (spending what it costs); Insert then reuses the answer. */
  async #tryIt(): Promise<void> {
    const button = el('builder-try');
    if (isBusy(button) || !this.#fn) return;
    this.#submitted = true;
    const c = await this.#checkNow();
    this.#showErrors();
    if (!c || this.#focusProblem(c)) {
      show(el('builder-message'), { tone: 'error', text: 'The formula needs fixing first: see the fields marked above.' });
      return;
    }
    busy(button, true);
    const before = this.#rt.client.meter.snapshot().credits;
    try {
      const result = await this.#rt.host.evaluate(this.#fn.id, c.built.args as never[]);
      renderResult(result);
      const spent = this.#rt.client.meter.snapshot().credits - before;
      show(el('builder-message'), {
        tone: 'info',
        text: `The preview spent ${formatInt(spent)} credit${spent === 1 ? '' : 's'}; inserting now reuses this answer while it is fresh.`,
      });
    } catch (e) {
      el('builder-result-wrap').hidden = true;
      const err = toFormulaError(e, this.#fn.id.toUpperCase());
      show(el('builder-message'), { tone: 'error', text: `The cell would show ${err.code}: ${err.message}` });
    } finally {
      busy(button, false);
    }
  }

  /** For the tests and the demo console: the check as the pane shows it. */
  check(): Promise<BuilderCheck | null> {
    return this.#checkNow();
  }
}
