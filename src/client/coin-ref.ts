/** How a coin is named once resolved, and the record of an ambiguous symbol. */
export interface CoinRef {
  id: number;
  slug: string;
  symbol: string | null;
  name: string;
}

/** An ambiguous symbol (or name) that resolved to one of several coins; shown in the task pane. */
export interface Ambiguity {
  input: string;
  chosen: CoinRef;
  alternatives: CoinRef[];
  /** When it was resolved (client clock, epoch ms). */
  at: number;
}

/** "bitcoin (BTC)" */
export function describeCoin(c: CoinRef): string {
  return c.symbol ? `${c.slug} (${c.symbol})` : c.slug;
}
