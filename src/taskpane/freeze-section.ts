/**
 * Keep values: "Convert to values" turns the CRYPTO cells in the selection,
 * the active sheet or the workbook into what they show, keeping their
 * formulas in a document setting; "Restore formulas" brings them back
 * (freeze.ts decides what to write).
 */
import { DOCUMENT_SETTINGS, hasDocumentSettings, readSetting, writeSettings } from '../office/document';
import { readRangesOnSheets } from '../office/sheet-ranges';
import { cryptoCells, selectedRange, writeFormulas, writeValues, type Scope } from '../office/workbook-cells';
import { busy, el, isBusy, show } from './dom';
import { freezePlan, frozenKey, frozenRange, readRecord, restorePlan, withFingerprints, type FrozenCell, type KeepReason, type SkipReason } from './freeze';

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
const where: Record<Scope, string> = { selection: 'the selection', sheet: 'the active sheet', workbook: 'the workbook' };
const leftBecause: Record<SkipReason, string> = {
  formula: 'a formula was typed there since',
  changed: 'its cells were changed since (edited, or moved by an inserted row or column)',
  sheet: 'its sheet is not there (deleted or renamed)',
};
const keptBecause: Record<KeepReason, string> = {
  'no-data-types':
    'a #VALUE! read there may be a data type (a card) that this version of Excel cannot copy as a value (that needs ExcelApi 1.16), and #VALUE! written over a card would break every formula reading its fields',
  'data-type': 'a data type there other than an entity card cannot be kept as a value',
  busy: 'it was still calculating (#BUSY!), and #BUSY! kept as its value would never settle: convert it again once it shows its value',
};
const named = (c: Pick<FrozenCell, 'sheet' | 'address'>) => `${c.sheet}!${c.address}`;
export class FreezeSection {
  readonly #inExcel: Promise<boolean>;

  constructor(inExcel: Promise<boolean>) {
    this.#inExcel = inExcel;
    el('freeze-go').addEventListener('click', () => void this.#run('freeze'));
    el('restore-go').addEventListener('click', () => void this.#run('restore'));
  }

  attach(): void {}

  #scope(): Scope {
    return (document.querySelector<HTMLInputElement>('input[name="freeze-scope"]:checked')?.value as Scope) ?? 'selection';
  }

  async #run(what: 'freeze' | 'restore'): Promise<void> {
    const button = el(what === 'freeze' ? 'freeze-go' : 'restore-go');
    const message = el('freeze-message');
    if (isBusy(button)) return;
    if (!(await this.#inExcel) || !hasDocumentSettings()) {
      show(message, { tone: 'info', text: 'Not running inside Excel: there are no cells to convert.' });
      return;
    }
    busy(button, true);
    try {
      show(message, what === 'freeze' ? await this.#freeze(this.#scope()) : await this.#restore(this.#scope()));
    } catch (e) {
      show(message, { tone: 'error', text: `Nothing was changed: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      busy(button, false);
    }
  }

  async #freeze(scope: Scope) {
    const cells = await cryptoCells(scope);
    if (cells.length === 0) return { tone: 'info' as const, text: `No CRYPTO formulas in ${where[scope]}.` };
    const plan = freezePlan(cells, readRecord(readSetting(DOCUMENT_SETTINGS.frozen)), Date.now());
    const converted = cells.filter((c) => !plan.kept.some((k) => k.cell === c));
    const keptText = (Object.entries(keptBecause) as [KeepReason, string][])
      .map(([reason, why]) => {
        const left = plan.kept.filter((x) => x.reason === reason).map((x) => named(x.cell));
        return left.length ? ` Left ${left.length === 1 ? 'as a formula' : 'as formulas'}, because ${why}: ${left.join(', ')}.` : '';
      })
      .join('');
    if (converted.length === 0) return { tone: 'warning' as const, text: `Nothing was converted.${keptText}` };
    // The record first: values written without it would lose the formulas.
    await writeSettings({ [DOCUMENT_SETTINGS.frozen]: plan.record });
    await writeValues(plan.writes);
    // Then what Excel holds now (it may have read a written text as a number or date), so Restore can tell it
    // from later edits. Without it, Restore still keeps every formula typed since.
    // Read with valuesAsJson where it is there: a card written back reads "#VALUE!" through Range.values, as any other card would.
    const back = await readRangesOnSheets(converted.map((c) => ({ sheet: c.sheet, sheetId: c.sheetId, address: frozenRange(c) }))).catch(() => null);
    if (back) {
      const held = new Map(converted.flatMap((c, i) => (back[i]?.[0] ? [[frozenKey(c.sheet, c.address), back[i][0]] as const] : [])));
      await writeSettings({ [DOCUMENT_SETTINGS.frozen]: withFingerprints(plan.record, held) }).catch(() => undefined);
    }
    return {
      tone: plan.kept.length ? ('warning' as const) : ('success' as const),
      text: `Converted ${plural(converted.length, 'CRYPTO cell')} in ${where[scope]} to values; recalculating no longer fetches them. Their formulas are kept in this workbook: Restore formulas brings them back.${keptText}`,
    };
  }

  async #restore(scope: Scope) {
    const record = readRecord(readSetting(DOCUMENT_SETTINGS.frozen));
    if (record.cells.length === 0) return { tone: 'info' as const, text: 'No converted formulas to restore in this workbook.' };
    const sel = await selectedRange();
    const now = await readRangesOnSheets(record.cells.map((c) => ({ sheet: c.sheet, sheetId: c.sheetId, address: frozenRange(c) })));
    const current = new Map(record.cells.map((c, i) => [frozenKey(c.sheet, c.address), now[i]]));
    const plan = restorePlan(record, { kind: scope, sheet: sel.sheet, range: sel.address }, current);
    if (plan.restores.length === 0 && plan.skipped.length === 0) return { tone: 'info' as const, text: `No converted formulas in ${where[scope]}.` };
    await writeFormulas(plan.restores);
    await writeSettings({ [DOCUMENT_SETTINGS.frozen]: plan.record.cells.length > 0 ? plan.record : null });
    const skipped = (Object.entries(leftBecause) as [SkipReason, string][])
      .map(([reason, why]) => {
        const left = plan.skipped.filter((x) => x.reason === reason).map((x) => named(x.cell));
        return left.length ? ` Left as ${left.length === 1 ? 'it is' : 'they are'}, because ${why}: ${left.join(', ')}.` : '';
      })
      .join('');
    // A sheet renamed since the freeze (found by its id): say where the formula went, under the name the user sees now.
    const moved = plan.restores.filter((r) => r.renamedFrom !== undefined).map((r) => `${named({ sheet: r.renamedFrom!, address: r.address })} to ${named(r)}`);
    const renamed = moved.length ? ` Restored on ${moved.length === 1 ? 'a sheet' : 'sheets'} renamed since: ${moved.join(', ')}.` : '';
    const tone = plan.skipped.length ? ('warning' as const) : ('success' as const);
    return { tone, text: `Restored ${plural(plan.restores.length, 'formula')} in ${where[scope]}; they calculate again.${renamed}${skipped}` };
  }
}
