/**
 * The Office and Excel globals the add-in's pane calls, answered by the
 * preview's workbook instead of Excel: Office.onReady reports Excel, and
 * Excel.run gives a request context whose calculate() calls are queued and
 * carried out on sync(), as Office.js batches them.
 */
import type { WorkbookCalculator } from '../protocol';

type Op = (wb: WorkbookCalculator) => Promise<void>;

export const CalculationType = { recalculate: 'Recalculate', full: 'Full', fullRebuild: 'FullRebuild' } as const;

export function officeShim() {
  const info = { host: 'Excel', platform: 'OfficeOnline' };
  return {
    HostType: { Excel: 'Excel', Word: 'Word', PowerPoint: 'PowerPoint', Outlook: 'Outlook' },
    PlatformType: { OfficeOnline: 'OfficeOnline' },
    onReady(callback?: (i: typeof info) => void): Promise<typeof info> {
      callback?.(info);
      return Promise.resolve(info);
    },
  };
}

export function excelShim(workbook: () => WorkbookCalculator | null) {
  return {
    CalculationType,
    async run<T>(batch: (ctx: unknown) => Promise<T>): Promise<T> {
      let queue: Op[] = [];
      const sheet = { calculate: (markAllDirty: boolean) => void queue.push((wb) => wb.calculateActiveSheet(Boolean(markAllDirty))) };
      const ctx = {
        workbook: {
          application: { calculate: (type: 'Recalculate' | 'Full' | 'FullRebuild') => void queue.push((wb) => wb.calculate(type)) },
          worksheets: { getActiveWorksheet: () => sheet },
        },
        async sync() {
          const ops = queue;
          queue = [];
          const wb = workbook();
          if (!wb) throw new Error('No workbook is open');
          for (const op of ops) await op(wb);
        },
      };
      return batch(ctx);
    },
  };
}
