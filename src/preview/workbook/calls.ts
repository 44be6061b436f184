/**
 * Custom-function calls by call site (a cell and the n-th CRYPTO call in its
 * formula), as Excel keeps them: a site whose arguments are unchanged reuses
 * its call and result; new arguments cancel the old call and start another;
 * a site the last recalculation did not reach (formula edited or cleared) is
 * canceled. A pending site reads as #BUSY!.
 */
import type { Call, CallRequest, ResultListener } from '../runtime/runtime';
import { quoteSheet } from './address';
import type { ArgumentValue, ResultGrid } from '../runtime/values';

export interface FunctionInvoker {
  call(req: CallRequest, onResult: ResultListener): Call;
}

interface Site {
  key: string;
  call: Call;
  result: ResultGrid | null;
  reached: boolean;
}

/** A settled call as a saved workbook keeps it: its site, arguments and result (Excel saves each cell's last value). */
export interface SavedSite {
  where: string;
  key: string;
  result: ResultGrid;
}

export interface CallStats {
  started: number;
  canceled: number;
  pending: number;
}

export class CallSites {
  private readonly sites = new Map<string, Site>();
  private started = 0;
  private canceled = 0;

  constructor(
    private readonly invoker: FunctionInvoker,
    /** A call delivered a result for this cell: recalculate. */
    private readonly onResult: (cell: string) => void,
    /** The sheet's name, for the calling cell's address ("Sheet1!B3"). */
    private readonly sheetName = 'Sheet1',
  ) {}

  /** Settled calls and their results, as a saved workbook keeps its cells' last values. */
  saved(): SavedSite[] {
    const out: SavedSite[] = [];
    for (const [where, s] of this.sites) if (s.result !== null && s.call.settled) out.push({ where, key: s.key, result: s.result });
    return out;
  }

  /**
   * A reopened workbook: its cells show their saved values, and a recalculation
   * that does not change a call's arguments does not call it again (Excel does
   * not recalculate non-volatile custom functions on open: Excel-Custom-Functions#368).
   */
  restore(saved: readonly SavedSite[]): void {
    for (const s of saved) {
      const call: Call = { id: '', settled: true, cancel: () => undefined };
      this.sites.set(s.where, { key: s.key, call, result: s.result, reached: false });
    }
  }

  /** The site's result, or null while its call is pending. */
  value(cell: string, occurrence: number, id: string, args: ArgumentValue[]): ResultGrid | null {
    const where = `${cell}#${occurrence}`;
    // The engine names argument cells on the first sheet; on another sheet they are this one's.
    if (this.sheetName !== 'Sheet1') args = args.map((a) => ('address' in a && a.address ? { ...a, address: a.address.replace(/^Sheet1!/, `${quoteSheet(this.sheetName)}!`) } : a));
    const key = JSON.stringify([id, args]);
    let site = this.sites.get(where);
    if (site && site.key !== key) {
      this.cancelSite(where, site);
      site = undefined;
    }
    if (!site) {
      const fresh: Site = { key, call: null as unknown as Call, result: null, reached: true };
      this.sites.set(where, fresh);
      this.started++;
      fresh.call = this.invoker.call({ id, args, address: `${quoteSheet(this.sheetName)}!${cell}` }, (grid) => {
        if (this.sites.get(where) !== fresh) return;
        fresh.result = grid;
        this.onResult(cell);
      });
      site = fresh;
    }
    site.reached = true;
    return site.result;
  }

  beginPass(): void {
    for (const s of this.sites.values()) s.reached = false;
  }

  /** Sites the pass did not reach belong to formulas that changed or went: cancel them. */
  endPass(): void {
    for (const [where, s] of this.sites) if (!s.reached) this.cancelSite(where, s);
  }

  /** A cell's formula was re-entered: Excel cancels its calls and calls again. */
  cancelCell(cell: string): void {
    for (const [where, s] of this.sites) if (where.startsWith(`${cell}#`)) this.cancelSite(where, s);
  }

  /** A full recalculation calls every custom function again. */
  cancelAll(): void {
    for (const [where, s] of this.sites) this.cancelSite(where, s);
  }

  stats(): CallStats {
    let pending = 0;
    for (const s of this.sites.values()) if (s.result === null) pending++;
    return { started: this.started, canceled: this.canceled, pending };
  }

  private cancelSite(where: string, s: Site): void {
    this.sites.delete(where);
    // A settled non-streaming call has nothing left to cancel; a streaming one always has.
    if (!s.call.settled) {
      this.canceled++;
      s.call.cancel();
    }
  }
}

