/**
 * The task pane: DOM wiring only. What to show comes from the pure modules next
 * to it (format, messages, view-model, settings-form); the data comes from the
 * shared runtime (one client, one cache, one calculation host with the custom
 * functions).
 *
 * The key: read from the input once on Save, checked with a throw-away client
 * (free /v3/status), written to its own storage entry, and the input cleared.
 * Only a masked form is ever put in the page.
 */
import './taskpane.css';
import { MarketClient, MemoryKeyStore, type AccountStatus } from '../client';
import { applySettings, getRuntime, onRuntimeChanged, type Runtime } from '../office/runtime';
import { DEFAULT_API_BASE_URL, DEMO_BUILD, OFFICIAL_API_BASE_URL, saveSettings } from '../office/settings';
import { isExcelHost, recalculateActiveSheet, recalculateWorkbook } from './excel';
import { formatDateTime, formatInt, formatRelative, formatTime, hostOf, maskKey } from './format';
import { keyCheckOutcome, refreshDoneMessage, statusErrorMessage, type Message } from './messages';
import { parseSettingsForm, toFormValues, type SettingsFormValues } from './settings-form';
import { throttle } from './throttle';
import {
  ambiguityRows,
  errorRows,
  creditsLeftText,
  creditsRemaining,
  estimateRefresh,
  planView,
  spendSignature,
  usageView,
  type CreditGauge,
  type RefreshMark,
} from './view-model';

declare global {
  interface Window {
    /** Development builds only: the shared runtime, for the demo console and the browser tests. */
    __cryptoAddin?: { getRuntime: typeof getRuntime; readonly runtime: Runtime };
  }
}

/** Plan and credits are re-read (free) at most this often after the formulas spent something. */
const STATUS_REFRESH_MS = 2_000;
const USAGE_RENDER_MS = 250;
/** The key check: one retry, short timeout, so the answer comes quickly. */
const KEY_CHECK_TIMEOUT_MS = 10_000;

const el = <T extends HTMLElement = HTMLElement>(id: string): T => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`task pane: #${id} missing`);
  return e as T;
};

function show(target: HTMLElement, m: Message | null): void {
  target.textContent = m?.text ?? '';
  if (m) target.dataset.tone = m.tone;
  else delete target.dataset.tone;
}

/** aria-disabled rather than disabled, so a button pressed from the keyboard keeps the focus. */
function busy(button: HTMLButtonElement, on: boolean): void {
  if (on) {
    button.setAttribute('aria-disabled', 'true');
    button.setAttribute('aria-busy', 'true');
  } else {
    button.removeAttribute('aria-disabled');
    button.removeAttribute('aria-busy');
  }
}

const isBusy = (button: HTMLElement) => button.getAttribute('aria-busy') === 'true';

// ------------------------------------------------------------------ state

let rt: Runtime;
let status: AccountStatus | null = null;
let statusAt = 0;
let refreshMark: RefreshMark | null = null;
let lastSpend = '';
let statusSeq = 0;
let unsubscribe: () => void = () => {};
let resolveHost!: (inExcel: boolean) => void;
const inExcel: Promise<boolean> = new Promise((r) => (resolveHost = r));

// ------------------------------------------------------------------ key

async function renderKey(): Promise<boolean> {
  const key = await rt.keys.getKey();
  const has = Boolean(key && key.trim());
  el('key-saved').hidden = !has;
  el('key-mask').textContent = has ? maskKey(key) : '';
  el('key-help').textContent = has
    ? 'Paste a new key to replace the saved one. Kept for your user on this computer only, never in the workbook.'
    : 'Kept for your user on this computer only, never in the workbook. Saving checks it with CryptoRank (free).';
  return has;
}

async function onSaveKey(ev: Event): Promise<void> {
  ev.preventDefault();
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
      await renderKey();
      if ('error' in result) {
        status = null;
        renderPlanError(result.error);
      } else {
        status = result;
        statusAt = Date.now();
        renderPlan();
      }
    } else {
      input.select();
    }
    show(message, outcome);
  } finally {
    busy(button, false);
  }
}

async function onRemoveKey(): Promise<void> {
  await rt.keys.setKey(null);
  rt.client.onKeyChanged();
  rt.host.clearLastGood();
  status = null;
  await renderKey();
  renderPlan();
  show(el('key-message'), {
    tone: 'info',
    text: 'Key removed from this computer. Formulas show #N/A until you add a key.',
  });
  el<HTMLInputElement>('key-input').focus();
}

// ------------------------------------------------------------------ plan and credits

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

function renderPlan(): void {
  const body = el('plan-body');
  if (!status) {
    body.hidden = true;
    void rt.keys.getKey().then((k) => {
      if (!k && !status) show(el('plan-message'), { tone: 'info', text: 'Add your API key to see your plan and credits.' });
    });
    return;
  }
  const now = Date.now();
  const v = planView(status, now);
  show(el('plan-message'), null);
  body.hidden = false;
  el('plan-name').textContent = v.plan;
  el('plan-rpm').textContent = formatInt(v.rateLimitPerMinute);
  el('daily').hidden = v.daily === null;
  if (v.daily) renderGauge('daily', v.daily, `resets ${formatRelative(v.dailyResetAt, now)} (00:00 UTC)`);
  renderGauge(
    'monthly',
    v.monthly,
    Number.isFinite(v.monthlyResetAt) ? `resets ${formatDateTime(v.monthlyResetAt)} (${formatRelative(v.monthlyResetAt, now)})` : 'reset date unknown',
  );
  el('plan-checked').textContent = `Checked at ${formatTime(statusAt)}. Reading the plan costs no credits.`;
}

function renderPlanError(error: unknown): void {
  el('plan-body').hidden = true;
  show(el('plan-message'), statusErrorMessage(error, rt.settings.apiBaseUrl));
}

/** Re-read /v3/status (free). Only the newest answer is shown. */
async function refreshStatus(force: boolean): Promise<void> {
  const seq = ++statusSeq;
  const key = await rt.keys.getKey();
  if (!key) {
    status = null;
    renderPlan();
    return;
  }
  try {
    const s = await rt.client.status({ force });
    if (seq !== statusSeq) return;
    status = s;
    statusAt = Date.now();
    renderPlan();
  } catch (e) {
    if (seq !== statusSeq) return;
    status = null;
    renderPlanError(e);
  }
}

const refreshStatusSoon = throttle(() => void refreshStatus(true), STATUS_REFRESH_MS);

// ------------------------------------------------------------------ this workbook

function cell(tag: 'td' | 'th', text: string, className?: string): HTMLElement {
  const c = document.createElement(tag);
  c.textContent = text;
  if (className) c.className = className;
  return c;
}

function renderUsage(): void {
  const m = rt.client.meter.snapshot();
  const v = usageView(m);
  el('usage-since').textContent = `Since ${formatTime(v.since)}, when the add-in started (or its settings last changed).`;
  el('usage-credits').textContent = formatInt(v.credits);
  el('usage-requests').textContent = formatInt(v.requests);
  el('usage-cache').textContent = formatInt(v.cacheHits);
  el('usage-shared').textContent = formatInt(v.sharedCalls);

  const budget = rt.settings.dailyCreditBudget;
  const budgetEl = el('usage-budget');
  budgetEl.hidden = budget === null;
  if (budget !== null) {
    const spent = rt.client.meter.creditsToday();
    budgetEl.textContent = `Daily budget: ${formatInt(spent)} of ${formatInt(budget)} credits spent today by this add-in${spent >= budget ? '; formulas have stopped calling the API until tomorrow (UTC)' : ''}.`;
  }

  const tbody = el('usage-rows');
  tbody.replaceChildren(
    ...v.rows.map((r) => {
      const tr = document.createElement('tr');
      tr.append(cell('th', r.label), cell('td', formatInt(r.requests), 'num'), cell('td', formatInt(r.credits), 'num'));
      tr.firstElementChild?.setAttribute('scope', 'row');
      return tr;
    }),
  );
  el('usage-table').hidden = v.rows.length === 0;
  el('usage-empty').hidden = v.rows.length > 0;

  const amb = ambiguityRows(rt.client.ambiguities);
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

  const errors = errorRows(rt.host.errors());
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

const renderUsageSoon = throttle(renderUsage, USAGE_RENDER_MS);

/** Follow the current runtime's meter and error log; applySettings builds new ones. */
function subscribe(r: Runtime): void {
  unsubscribe();
  lastSpend = spendSignature(r.client.meter.snapshot());
  const onMeter = () => {
    renderUsageSoon();
    const sig = spendSignature(r.client.meter.snapshot());
    if (sig !== lastSpend) {
      lastSpend = sig;
      refreshStatusSoon();
    }
  };
  r.client.meter.addEventListener('change', onMeter);
  r.host.addEventListener('error-logged', renderUsageSoon);
  unsubscribe = () => {
    r.client.meter.removeEventListener('change', onMeter);
    r.host.removeEventListener('error-logged', renderUsageSoon);
  };
}

// ------------------------------------------------------------------ refresh

type Scope = 'workbook' | 'sheet';
let pendingScope: Scope | null = null;

function hideConfirm(): void {
  pendingScope = null;
  el('refresh-confirm').hidden = true;
}

function onRefresh(scope: Scope): void {
  if (isBusy(el('refresh-all'))) return;
  const est = estimateRefresh(rt.client.meter.snapshot(), refreshMark, creditsRemaining(status));
  if (!est.confirm) {
    void doRefresh(scope);
    return;
  }
  pendingScope = scope;
  const left = status ? creditsLeftText(status, formatInt) : '';
  el('refresh-confirm-text').textContent =
    `${scope === 'workbook' ? 'Refreshing all data' : 'Refreshing the active sheet'} fetches everything again and may spend up to about ${formatInt(est.credits)} credits (estimated from ${est.basis}).${left}`;
  el('refresh-confirm').hidden = false;
  el('refresh-go').focus();
}

async function doRefresh(scope: Scope): Promise<void> {
  hideConfirm();
  const buttons = [el<HTMLButtonElement>('refresh-all'), el<HTMLButtonElement>('refresh-sheet')];
  buttons.forEach((b) => busy(b, true));
  try {
    rt.client.refreshAll();
    rt.host.clearLastGood();
    const m = rt.client.meter.snapshot();
    refreshMark = { since: m.since, credits: m.credits };
    const excel = await inExcel;
    if (!excel) {
      show(el('refresh-message'), refreshDoneMessage(scope, false));
      return;
    }
    try {
      await (scope === 'workbook' ? recalculateWorkbook() : recalculateActiveSheet());
      show(el('refresh-message'), refreshDoneMessage(scope, true));
    } catch (e) {
      show(el('refresh-message'), refreshDoneMessage(scope, true, e));
    }
  } finally {
    buttons.forEach((b) => busy(b, false));
  }
}

// ------------------------------------------------------------------ settings

function fillSettingsForm(): void {
  const v = toFormValues(rt.settings);
  el<HTMLSelectElement>('set-currency').value = v.defaultCurrency;
  el<HTMLInputElement>('set-fresh').value = v.liveFreshnessSeconds;
  el<HTMLInputElement>('set-budget').value = v.dailyCreditBudget;
  el<HTMLInputElement>('set-base').value = v.apiBaseUrl;
  el('set-base-hint').textContent = DEMO_BUILD
    ? `Development build: the local API server (${DEFAULT_API_BASE_URL}). The official API is ${OFFICIAL_API_BASE_URL}.`
    : `Default: ${OFFICIAL_API_BASE_URL}. Change only if told to.`;
  const custom = el('custom-api');
  const isCustom = rt.settings.apiBaseUrl !== DEFAULT_API_BASE_URL;
  custom.hidden = !isCustom;
  custom.textContent = isCustom ? `Using a custom API address: ${hostOf(rt.settings.apiBaseUrl)} (Settings, Advanced).` : '';
}

const FIELDS: Record<keyof SettingsFormValues, string> = {
  defaultCurrency: 'set-currency',
  liveFreshnessSeconds: 'set-fresh',
  dailyCreditBudget: 'set-budget',
  apiBaseUrl: 'set-base',
};

async function onApplySettings(ev: Event): Promise<void> {
  ev.preventDefault();
  const values: SettingsFormValues = {
    defaultCurrency: el<HTMLSelectElement>('set-currency').value,
    liveFreshnessSeconds: el<HTMLInputElement>('set-fresh').value,
    dailyCreditBudget: el<HTMLInputElement>('set-budget').value,
    apiBaseUrl: el<HTMLInputElement>('set-base').value,
  };
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
  const button = el<HTMLButtonElement>('apply-settings');
  if (isBusy(button)) return;
  busy(button, true);
  try {
    const saved = await saveSettings(rt.store, parsed.settings);
    await applySettings(saved); // onRuntimeChanged re-renders and re-subscribes
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

// ------------------------------------------------------------------ start

async function officeHost(): Promise<Office.HostType | null> {
  if (typeof Office === 'undefined' || typeof Office.onReady !== 'function') return null;
  try {
    const info = await Office.onReady();
    return info?.host ?? null;
  } catch {
    return null;
  }
}

function onRuntime(next: Runtime): void {
  rt = next;
  status = null;
  refreshMark = null;
  subscribe(next);
  fillSettingsForm();
  renderUsage();
  void refreshStatus(false);
}

async function start(): Promise<void> {
  void officeHost().then((host) => {
    const excel = isExcelHost(host);
    el('host-note').hidden = excel;
    resolveHost(excel);
  });

  rt = await getRuntime();
  if (DEMO_BUILD) {
    window.__cryptoAddin = {
      getRuntime,
      get runtime() {
        return rt;
      },
    };
  }
  el('key-form').addEventListener('submit', (e) => void onSaveKey(e));
  el('remove-key').addEventListener('click', () => void onRemoveKey());
  el('refresh-all').addEventListener('click', () => onRefresh('workbook'));
  el('refresh-sheet').addEventListener('click', () => onRefresh('sheet'));
  el('refresh-go').addEventListener('click', () => void doRefresh(pendingScope ?? 'workbook'));
  el('refresh-cancel').addEventListener('click', () => {
    hideConfirm();
    show(el('refresh-message'), { tone: 'info', text: 'Refresh cancelled: nothing was fetched.' });
    el('refresh-all').focus();
  });
  el('refresh-confirm').addEventListener('keydown', (e) => {
    if (e.key === 'Escape') el('refresh-cancel').click();
  });
  el('settings-form').addEventListener('submit', (e) => void onApplySettings(e));
  onRuntimeChanged(onRuntime);

  await renderKey();
  onRuntime(rt);
  document.body.dataset.ready = 'true';
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', () => void start());
else void start();
