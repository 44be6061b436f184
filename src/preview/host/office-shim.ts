/**
 * The Office and Excel globals the add-in calls, answered by the preview
 * instead of Excel: Office.onReady reports Excel; Office.context.requirements
 * answers for the requirement sets the preview plays (options.ts); Excel.run
 * gives a request context whose calls are queued and carried out on sync(), as
 * Office.js batches them: calculate() on the workbook, and
 * workbook.functions.date() (Excel's DATE, in the workbook's date system).
 */
import { serialIn, toSerial } from '../../formulas/cells';
import type { WorkbookCalculator } from '../protocol';
import type { PreviewExcel } from './options';

type Op = (wb: WorkbookCalculator | null) => Promise<void>;

function open(wb: WorkbookCalculator | null): WorkbookCalculator {
  if (!wb) throw new Error('No workbook is open');
  return wb;
}

/** Requirement sets and the highest version the preview answers for (CustomFunctionsRuntime per options). */
function supportedSets(excel: PreviewExcel): Record<string, string> {
  return { CustomFunctionsRuntime: excel.runtime, SharedRuntime: '1.1', ExcelApi: '1.2' };
}

const versionAtLeast = (have: string, want: string) => {
  const [a, b] = [have, want].map((v) => v.split('.').map(Number));
  for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) > (b[i] ?? 0);
  return true;
};

export const CalculationType = { recalculate: 'Recalculate', full: 'Full', fullRebuild: 'FullRebuild' } as const;

export function officeShim(excel: PreviewExcel) {
  const info = { host: 'Excel', platform: 'OfficeOnline' };
  const sets = supportedSets(excel);
  return {
    HostType: { Excel: 'Excel', Word: 'Word', PowerPoint: 'PowerPoint', Outlook: 'Outlook' },
    PlatformType: { OfficeOnline: 'OfficeOnline' },
    context: {
      requirements: {
        isSetSupported: (name: string, version = '1.1') => Object.hasOwn(sets, name) && versionAtLeast(sets[name], String(version)),
      },
    },
    onReady(callback?: (i: typeof info) => void): Promise<typeof info> {
      callback?.(info);
      return Promise.resolve(info);
    },
  };
}

export function excelShim(workbook: () => WorkbookCalculator | null, excel: PreviewExcel) {
  return {
    CalculationType,
    async run<T>(batch: (ctx: unknown) => Promise<T>): Promise<T> {
      let queue: Op[] = [];
      const sheet = { calculate: (markAllDirty: boolean) => void queue.push((wb) => open(wb).calculateActiveSheet(Boolean(markAllDirty))) };
      /** Excel's DATE as Workbook.functions evaluates it: a FunctionResult whose value is there after sync(). */
      const date = (y: number, m: number, d: number) => {
        const result = { value: undefined as number | undefined, error: undefined as string | undefined, load: () => result };
        queue.push(async () => {
          result.value = serialIn(toSerial(Date.UTC(y, m - 1, d)), excel.dates);
        });
        return result;
      };
      const ctx = {
        workbook: {
          application: { calculate: (type: 'Recalculate' | 'Full' | 'FullRebuild') => void queue.push((wb) => open(wb).calculate(type)) },
          worksheets: { getActiveWorksheet: () => sheet },
          functions: { date },
        },
        async sync() {
          const ops = queue;
          queue = [];
          const wb = workbook();
          for (const op of ops) await op(wb);
        },
      };
      return batch(ctx);
    },
  };
}
