/** A1 addresses: column letters and 1-based rows, as Excel writes them. */

export interface Position {
  row: number;
  col: number;
}

export function columnName(col: number): string {
  let s = '';
  for (let c = col; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

export const toAddress = (p: Position) => `${columnName(p.col)}${p.row}`;

export function parseAddress(a: string): Position | null {
  const m = /^\$?([A-Z]{1,3})\$?([1-9][0-9]{0,6})$/i.exec(a.trim());
  if (!m) return null;
  let col = 0;
  for (const ch of m[1].toUpperCase()) col = col * 26 + (ch.charCodeAt(0) - 64);
  return { row: Number(m[2]), col };
}

/** Row-major order, as Excel lists a sheet's cells. */
export const byPosition = (a: Position, b: Position) => a.row - b.row || a.col - b.col;

export interface Rect {
  top: number;
  left: number;
  bottom: number;
  right: number;
}

export function parseRange(address: string): Rect | null {
  const [a, b] = address.replace(/\$/g, '').split(':');
  const p = parseAddress(a);
  const q = b === undefined ? p : parseAddress(b);
  if (!p || !q) return null;
  return { top: Math.min(p.row, q.row), left: Math.min(p.col, q.col), bottom: Math.max(p.row, q.row), right: Math.max(p.col, q.col) };
}

export const rangeAddress = (r: Rect) =>
  r.top === r.bottom && r.left === r.right ? toAddress({ row: r.top, col: r.left }) : `${toAddress({ row: r.top, col: r.left })}:${toAddress({ row: r.bottom, col: r.right })}`;

/** A sheet name as an A1 reference writes it: quoted when it is not a plain word ('CRYPTO log'!A1). */
export const quoteSheet = (name: string) => (/^[A-Za-z_][A-Za-z0-9_.]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`);
