/**
 * Workbooks a finance user recognises, as the cells one would type. The same
 * table feeds the preview's template picker and the .xlsx samples.
 */
import type { NumberFormat } from './format';

export interface Template {
  id: string;
  title: string;
  description: string;
  cells: Record<string, string>;
  formats: Record<string, NumberFormat>;
}

const rows = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

const HOLDINGS: [string, number][] = [
  ['bitcoin', 0.5],
  ['ethereum', 4],
  ['solana', 60],
  ['chainlink', 250],
  ['arbitrum', 2000],
];

const portfolio: Template = {
  id: 'portfolio',
  title: 'Portfolio',
  description: 'Holdings with live prices, 24h changes and their value.',
  cells: {
    A1: 'My crypto portfolio',
    A3: 'Coin',
    B3: 'Holding',
    C3: 'Price (USD)',
    D3: '24h change',
    E3: 'Value (USD)',
    ...Object.fromEntries(
      HOLDINGS.flatMap(([coin, amount], i) => {
        const r = 4 + i;
        return [
          [`A${r}`, coin],
          [`B${r}`, String(amount)],
          [`C${r}`, `=CRYPTO.PRICE(A${r})`],
          [`D${r}`, `=INDEX(CRYPTO.QUOTE(A${r},"percentChange.h24",,0),1,2)`],
          [`E${r}`, `=B${r}*C${r}`],
        ];
      }),
    ),
    A10: 'Total',
    D10: '=SUMPRODUCT(E4:E8,D4:D8)/E10',
    E10: '=SUM(E4:E8)',
  },
  formats: Object.fromEntries([
    ...rows(4, 8).flatMap((r) => [[`C${r}`, 'money'], [`D${r}`, 'percentPoints'], [`E${r}`, 'money']]),
    ['D10', 'percentPoints'],
    ['E10', 'money'],
  ]) as Record<string, NumberFormat>,
};

const history: Template = {
  id: 'history',
  title: 'Price history',
  description: 'Bitcoin month by month in 2024, with monthly returns, beside its yearly returns.',
  cells: {
    A1: 'Bitcoin price history, 2024',
    A3: '=CRYPTO.OHLCV("bitcoin","2024","2024-12-31","monthly",1,"date","close")',
    C3: 'Monthly return',
    ...Object.fromEntries(rows(5, 15).map((r) => [`C${r}`, `=B${r}/B${r - 1}-1`])),
    E3: '=CRYPTO.RETURNS("bitcoin","yearly")',
  },
  // Formatted as a user formats a spill's columns in Excel: custom functions' dates arrive as serial numbers.
  formats: Object.fromEntries([
    ...rows(4, 15).map((r) => [`A${r}`, 'date']),
    ...rows(4, 15).map((r) => [`B${r}`, 'money']),
    ...rows(5, 15).map((r) => [`C${r}`, 'percent']),
    ...rows(4, 20).flatMap((r) => [[`E${r}`, 'date'], [`F${r}`, 'money'], [`G${r}`, 'percentPoints']]),
  ]) as Record<string, NumberFormat>,
};

const dashboard: Template = {
  id: 'dashboard',
  title: 'Market dashboard',
  description: 'The sentiment indices, dominance and global figures, and the top 10 coins.',
  cells: {
    A1: 'Crypto market dashboard',
    A3: 'Fear & Greed (0-100)',
    B3: '=CRYPTO.FEARGREED()',
    A4: 'Altcoin Season (0-100)',
    B4: '=CRYPTO.ALTSEASON()',
    A5: 'Bitcoin dominance %',
    B5: '=CRYPTO.DOMINANCE()',
    A6: 'Total market cap (USD)',
    B6: '=CRYPTO.GLOBAL("totalMarketCap")',
    A7: '24h volume (USD)',
    B7: '=CRYPTO.GLOBAL("totalVolume24h")',
    A8: 'Market cap 24h change',
    B8: '=CRYPTO.GLOBAL("marketCapChangePercent24h")',
    A10: '=CRYPTO.MARKETS(10)',
  },
  formats: {
    B5: 'percentPoints',
    B6: 'integer',
    B7: 'integer',
    B8: 'percentPoints',
    // The markets table's Last updated column (P), as a user would format it.
    ...Object.fromEntries(rows(11, 20).map((r) => [`P${r}`, 'datetime'])),
  } as Record<string, NumberFormat>,
};

const unlocks: Template = {
  id: 'unlocks',
  title: 'Token unlocks',
  description: 'The next 90 days of token unlocks across all coins, soonest first.',
  cells: {
    A1: 'Token unlock calendar: the next 90 days',
    // Every unlock of the 90 days (UNLOCKS' default), not the first page: the title's promise.
    A3: '=CRYPTO.UNLOCKS(90)',
  },
  // The Date column over as many rows as UNLOCKS can answer: its cap (UNLOCKS_CAP, src/formulas/unlocks.ts) and the note row.
  formats: Object.fromEntries(rows(4, 4 + 1000).map((r) => [`A${r}`, 'date'])) as Record<string, NumberFormat>,
};

const blank: Template = { id: 'blank', title: 'Blank', description: 'An empty sheet.', cells: {}, formats: {} };

export const TEMPLATES: readonly Template[] = [portfolio, history, dashboard, unlocks, blank];

export const templateById = (id: string | null): Template => TEMPLATES.find((t) => t.id === id) ?? portfolio;
