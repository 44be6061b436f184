/**
 * The selected range: an anchor cell and the active cell, as Excel keeps them
 * (Shift+arrows or Shift+click move the active end; the anchor stays).
 */
import { toAddress, type Position } from './address';

export interface Rect {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export class Selection {
  anchor: Position = { row: 1, col: 1 };
  active: Position = { row: 1, col: 1 };

  /** Select one cell, or (extend) the range from the anchor to it. */
  set(p: Position, extend = false): void {
    const q = { row: Math.max(1, p.row), col: Math.max(1, p.col) };
    this.active = q;
    if (!extend) this.anchor = q;
  }

  rect(): Rect {
    return {
      top: Math.min(this.anchor.row, this.active.row),
      left: Math.min(this.anchor.col, this.active.col),
      bottom: Math.max(this.anchor.row, this.active.row),
      right: Math.max(this.anchor.col, this.active.col),
    };
  }

  contains(p: Position): boolean {
    const r = this.rect();
    return p.row >= r.top && p.row <= r.bottom && p.col >= r.left && p.col <= r.right;
  }

  /** Every address in the range, rows then columns. */
  addresses(): string[] {
    const r = this.rect();
    const out: string[] = [];
    for (let row = r.top; row <= r.bottom; row++) for (let col = r.left; col <= r.right; col++) out.push(toAddress({ row, col }));
    return out;
  }

  /** "B2" or "B2:D5", as Excel's Name Box shows a selection. */
  label(): string {
    const r = this.rect();
    const a = toAddress({ row: r.top, col: r.left });
    return r.top === r.bottom && r.left === r.right ? a : `${a}:${toAddress({ row: r.bottom, col: r.right })}`;
  }
}
