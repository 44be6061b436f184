/**
 * The preview's Excel batches (excel-shim.ts): a request context whose
 * objects queue their reads (load) and writes and carry them out in order on
 * sync(), as Office.js batches them. A property read before it was loaded
 * and synced throws, as in Office.js; an *OrNullObject result says whether it
 * exists after a sync.
 */
import type { WorkbookDocument } from '../protocol';
import { doc, type ShimWorkbook } from './office-shim';
import type { PreviewExcel } from './options';

export type Op = (wb: ShimWorkbook | null) => Promise<void> | void;

export class NotLoaded extends Error {
  constructor(what: string) {
    super(`PropertyNotLoaded: ${what} was not loaded; call load() and context.sync() first`);
    this.name = 'RichApi.Error';
  }
}

/**
 * What Excel.run hands the batch: operations queued by the objects it gives
 * out, carried out in order on sync(). `workbook` is made for it by the
 * caller (excel-shim.ts), so this file knows nothing of what the objects are.
 */
export class RequestContext {
  queue: Op[] = [];
  readonly workbook: unknown;
  constructor(
    readonly wb: () => ShimWorkbook | null,
    readonly excel: PreviewExcel,
    workbook: (ctx: RequestContext) => unknown,
  ) {
    this.workbook = workbook(this);
  }
  async sync(): Promise<void> {
    const ops = this.queue;
    this.queue = [];
    const wb = this.wb();
    for (const op of ops) await op(wb);
  }
}

/** Something whose properties are read by load() and sync(). */
export class Loadable {
  protected data: Record<string, unknown> | null = null;
  /** Known after a sync for the objects of *OrNullObject methods, loaded or not (as in Office.js). */
  protected isNull: boolean | null = null;
  protected prop<T>(name: string): T {
    if (this.isNull === true || this.data?.isNullObject === true) throw new Error(`InvalidObjectPath: the object is a null object (${name})`);
    if (!this.data) throw new NotLoaded(name);
    return this.data[name] as T;
  }
  get isNullObject(): boolean {
    if (this.data && typeof this.data.isNullObject === 'boolean') return this.data.isNullObject;
    if (this.isNull === null) throw new NotLoaded('isNullObject');
    return this.isNull;
  }
}

/** An *OrNullObject result: whether it exists is settled at the next sync. */
export function nullable<T extends Loadable>(ctx: RequestContext, o: T, exists: (d: WorkbookDocument) => boolean): T {
  ctx.queue.push((wb) => {
    (o as unknown as { isNull: boolean }).isNull = !exists(doc(wb));
  });
  return o;
}
