/**
 * What the workbook a custom function answers into can take, asked of Office
 * once per workbook (the shared runtime is the workbook's):
 *
 * - Formatted numbers: CustomFunctionsRuntime 1.4 (Microsoft 365 on the web,
 *   Windows 2208+, Mac 16.64+; not perpetual Office) takes
 *   `{ type: "FormattedNumber", basicValue, numberFormat }` from a function
 *   (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-data-types-concepts,
 *   learn.microsoft.com/javascript/api/requirement-sets/excel/custom-functions-requirement-sets).
 *   Asked through Office.context.requirements.isSetSupported each time: Office
 *   may not be initialized when the first cell calculates.
 * - The date system: Workbook.use1904DateSystem is a preview API (ExcelApi
 *   BETA, not in a released requirement set, so not usable in a published
 *   add-in). Read instead through Excel's DATE worksheet function, which
 *   Workbook.functions evaluates without touching a cell (ExcelApi 1.2):
 *   DATE(1904,1,1) is 1462 in the 1900 system and 0 in the 1904 system.
 *   Reading the workbook from a custom function is documented ("Call Excel
 *   APIs from a custom function": "get information from Excel before
 *   calculation"). Asked once; a call that cannot wait for the answer (it is
 *   slow) counts the workbook as 1900, Excel's default, while the question
 *   stays open for the calls after it; an answer Excel cannot give at all
 *   (the API fails) is 1900 for good. When the slow answer turns out to be
 *   1904, the calls that counted it 1900 answered for the wrong days with no
 *   error: `onLateAnswer` (the runtime: a full recalculation) has them asked
 *   again, once.
 */
import type { DateSystem, WorkbookTraits } from '../formulas/cells';

const DETECT_TIMEOUT_MS = 3000;

export function formattedNumbersSupported(): boolean {
  try {
    return typeof Office !== 'undefined' && Office.context?.requirements?.isSetSupported('CustomFunctionsRuntime', '1.4') === true;
  } catch {
    return false;
  }
}

/** The 1904 system's serial for its own first day is 0; the 1900 system's is 1462. */
export const dateSystemOf = (date1904Jan1: unknown): DateSystem => (typeof date1904Jan1 === 'number' && date1904Jan1 < 1 ? '1904' : '1900');

async function askDateSystem(): Promise<DateSystem> {
  if (typeof Excel === 'undefined' || typeof Excel.run !== 'function') return '1900';
  return Excel.run(async (ctx) => {
    const r = ctx.workbook.functions.date(1904, 1, 1);
    r.load('value');
    await ctx.sync();
    return dateSystemOf(r.value);
  });
}

/**
 * The workbook's date system, asked of Excel once: one per start of the
 * add-in, held by the runtime (runtime.ts), which is the workbook's.
 */
export class DateSystemProbe {
  #answer: Promise<DateSystem> | null = null;
  #known: DateSystem | null = null;
  /** A call went on as 1900 before Excel said. */
  #guessed = false;
  readonly #onLateAnswer: ((d: DateSystem) => void) | undefined;

  /** `onLateAnswer`: Excel said 1904 after some call had gone on as 1900 (called once). */
  constructor(o: { onLateAnswer?: (d: DateSystem) => void } = {}) {
    this.#onLateAnswer = o.onLateAnswer;
  }

  /** Ask Excel now, if not asked yet (the runtime asks as it starts, beside reading its settings). */
  ask(): Promise<DateSystem> {
    if (!this.#answer) {
      this.#answer = askDateSystem().catch((): DateSystem => '1900');
      void this.#answer.then((d) => {
        this.#known = d;
        if (this.#guessed && d !== '1900') this.#onLateAnswer?.(d);
      });
    }
    return this.#answer;
  }

  /** The date system; '1900' for this call when Excel has not said within `waitMs`. */
  read(waitMs = DETECT_TIMEOUT_MS): Promise<DateSystem> {
    if (this.#known) return Promise.resolve(this.#known);
    const pending = this.ask();
    return new Promise<DateSystem>((resolve) => {
      const timer = setTimeout(() => {
        this.#guessed = true;
        resolve('1900');
      }, waitMs);
      void pending.then((d) => {
        clearTimeout(timer);
        resolve(d);
      });
    });
  }
}

/** What a custom function's answer is shaped for: formatted numbers asked now, the date system of the probe. */
export async function workbookTraits(dates: DateSystemProbe): Promise<WorkbookTraits> {
  return { formattedNumbers: formattedNumbersSupported(), dateSystem: await dates.read() };
}
