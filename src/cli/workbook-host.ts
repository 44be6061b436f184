/**
 * A calculation host that hands arguments over and takes results back as a
 * given kind of Excel build does, for the formula CLI and the formula tests:
 *
 * - blanks: "null" as Excel on the web and newer desktop builds pass a blank
 *   cell; "zero" as older desktop builds do (office-js#4702, #5262, #1951).
 *   Formula text has no cells, so under "zero" every omitted argument arrives
 *   as the 0 a blank cell there would give ("0" where the parameter is typed
 *   string, as the preview marshals it), but where 0 is a value of its own
 *   (below), which a blank on those builds cannot be told from.
 * - formattedNumbers: dates come back as date cells (printed as Excel's
 *   FormattedNumber, what CustomFunctionsRuntime 1.4 gets) rather than the
 *   plain serials Excel's Range.values holds and 1.3 clients show.
 * - dateSystem: the workbook's 1900 or 1904 system, for date arguments and results
 *   (and, through the host's settings, for the engine's DATE, TODAY... in calculate.ts).
 */
import { DateCell, serialIn, type Cell, type DateSystem, type FormulaResult } from '../formulas/cells';
import { EntityCell } from '../formulas/entity-cell';
import { CalculationHost, type EvaluateOptions, type HostOptions } from '../formulas/host';
import type { Arg } from '../formulas/args';
import type { FunctionMeta } from './metadata';

export interface WorkbookBehaviour {
  blanks: 'null' | 'zero';
  formattedNumbers: boolean;
  dateSystem: DateSystem;
}

export const EXCEL_WEB: WorkbookBehaviour = { blanks: 'null', formattedNumbers: false, dateSystem: '1900' };

/**
 * Parameters whose 0 is a value of its own, so a blank cell on an older desktop
 * build means that value (src/formulas/args.ts, the blank rule): STOCKHISTORY's
 * headers 0 (no header row), and numbers (a count of 0 is #VALUE!; a minimum of
 * 0 is a filter). Number parameters typed `number` in functions.json are found
 * by their type; these are the ones typed `any`.
 */
const ZERO_IS_A_VALUE = new Set(['headers', 'count', 'intervalSeconds']);

export class WorkbookHost extends CalculationHost {
  private readonly metadata: Map<string, FunctionMeta>;

  constructor(opts: HostOptions, readonly behaviour: WorkbookBehaviour, functions: readonly FunctionMeta[]) {
    super({ ...opts, settings: { ...opts.settings, dateSystem: behaviour.dateSystem } });
    this.metadata = new Map(functions.map((f) => [f.id.toUpperCase(), f]));
  }

  override evaluate(id: string, args: Arg[], opts: EvaluateOptions = {}): Promise<FormulaResult> {
    return super.evaluate(id, this.blanksIn(id, args), opts);
  }

  private blanksIn(id: string, args: Arg[]): Arg[] {
    const meta = this.behaviour.blanks === 'zero' ? this.metadata.get(id.toUpperCase()) : undefined;
    if (!meta) return args;
    return args.map((a, k) => {
      const p = meta.parameters[k];
      if (!p || p.type === 'number' || ZERO_IS_A_VALUE.has(p.name)) return a;
      // Converted by the parameter's type, as the preview marshals it: "0" where it is typed string.
      const blank = p.type === 'string' ? '0' : 0;
      const zero = (x: Arg) => (x === null ? blank : x);
      return p.repeating && Array.isArray(a) ? a.map(zero) : zero(a);
    });
  }

  /** Once per evaluation, for every cell it answers: a column of the same formula shares it. */
  protected override presented(result: FormulaResult): FormulaResult {
    return Array.isArray(result) ? result.map((row) => row.map((c) => this.cellOut(c))) : this.cellOut(result);
  }

  private cellOut(c: Cell): Cell {
    if (typeof c !== 'object' || c === null) return c;
    // An entity as a 1.4 client gets it (dates in the workbook's system), else its text as a 1.3 client shows it.
    if (c instanceof EntityCell) {
      return this.behaviour.formattedNumbers ? new EntityCell(c.inWorkbook((s) => serialIn(s, this.behaviour.dateSystem))) : c.text;
    }
    if (!(c instanceof DateCell)) return c;
    const serial = serialIn(c.serial, this.behaviour.dateSystem);
    return this.behaviour.formattedNumbers ? new DateCell(serial, c.numberFormat) : serial;
  }
}
