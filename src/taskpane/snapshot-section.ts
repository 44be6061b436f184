/**
 * Append snapshot: a row dated now (UTC) with the chosen cells' values, added
 * to the Snapshots sheet, for a daily log such as net worth. The chosen cells
 * are kept in the workbook (a document setting), so each day is one click.
 */
import { serialIn, toSerial } from '../formulas/cells';
import { DOCUMENT_SETTINGS, hasDocumentSettings, readSetting, writeSettings } from '../office/document';
import type { Runtime } from '../office/runtime';
import { appendRows, readFirstCells, selectedRange } from '../office/workbook-cells';
import { busy, el, isBusy, show } from './dom';
import { SNAPSHOT_DATE_FORMAT, SNAPSHOT_SHEET, parseCellList, quoteSheet, savedOnly, snapshotBlock, snapshotDone } from './snapshot';

export class SnapshotSection {
  #rt!: Runtime;
  readonly #inExcel: Promise<boolean>;

  constructor(inExcel: Promise<boolean>) {
    this.#inExcel = inExcel;
    el('snapshot-go').addEventListener('click', () => void this.#append());
    el('snapshot-use-selection').addEventListener('click', () => void this.#useSelection());
  }

  attach(rt: Runtime): void {
    this.#rt = rt;
    void this.#inExcel.then((excel) => {
      const saved = excel ? readSetting<string>(DOCUMENT_SETTINGS.snapshotCells) : null;
      if (typeof saved === 'string' && !el<HTMLInputElement>('snapshot-cells').value) el<HTMLInputElement>('snapshot-cells').value = saved;
    });
  }

  async #useSelection(): Promise<void> {
    if (!(await this.#inExcel)) return;
    try {
      const sel = await selectedRange();
      el<HTMLInputElement>('snapshot-cells').value = `${quoteSheet(sel.sheet)}!${sel.address}`;
      el('snapshot-error').textContent = '';
    } catch (e) {
      el('snapshot-error').textContent = `The selection could not be read: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  async #append(): Promise<void> {
    const button = el('snapshot-go');
    const message = el('snapshot-message');
    const input = el<HTMLInputElement>('snapshot-cells');
    if (isBusy(button)) return;
    if (!(await this.#inExcel) || !hasDocumentSettings()) {
      show(message, { tone: 'info', text: 'Not running inside Excel: there is no sheet to log to.' });
      return;
    }
    busy(button, true);
    try {
      const active = await selectedRange();
      const parsed = parseCellList(input.value, active.sheet);
      if ('error' in parsed) {
        el('snapshot-error').textContent = parsed.error;
        input.setAttribute('aria-invalid', 'true');
        input.focus();
        return;
      }
      el('snapshot-error').textContent = '';
      input.removeAttribute('aria-invalid');
      // Values and formulas in one sync: the formulas only tell CRYPTO cells apart (savedOnly).
      const { values, formulas } = await readFirstCells(parsed.cells);
      const saved = savedOnly(parsed.cells, formulas, (address) => this.#rt.host.provenance.at(address) !== null);
      const serial = serialIn(toSerial(Date.now()), await this.#rt.dateSystem.read());
      const { header, row } = snapshotBlock(parsed.cells, values, serial);
      const at = await appendRows(SNAPSHOT_SHEET, header, [row], [SNAPSHOT_DATE_FORMAT]);
      await writeSettings({ [DOCUMENT_SETTINGS.snapshotCells]: input.value.trim() });
      show(message, snapshotDone(parsed.cells.length, at.address, saved));
    } catch (e) {
      show(message, { tone: 'error', text: `No snapshot was taken: ${e instanceof Error ? e.message : String(e)}` });
    } finally {
      busy(button, false);
    }
  }
}
