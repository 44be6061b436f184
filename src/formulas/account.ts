/**
 * CREDITS: the key's plan and credit usage from /v3/status (free: read fresh
 * on every calculation, never from the cache), and what this workbook session
 * spent, from the client's meter.
 *
 * Account fields are the account's (every machine and workbook on the same
 * key); the `workbook*` fields count only the requests this add-in session made.
 */
import type { AccountStatus } from '../api/records';
import type { MeterSnapshot } from '../client';
import { fieldArg, type Arg } from './args';
import { dateCell, formulaError, numberCell, recordCells, type Cell, type Grid } from './cells';
import type { Catalog, FormulaContext } from './formula-context';

interface AccountView {
  status: AccountStatus;
  meter: MeterSnapshot;
}

const CREDIT_FIELDS: Record<string, (a: AccountView) => Cell> = {
  plan: (a) => a.status.plan,
  rateLimitPerMinute: (a) => a.status.rateLimitPerMinute,
  dailyLimit: (a) => numberCell(a.status.credits.dailyLimit), // empty where the service reports no daily figures
  dailyUsed: (a) => numberCell(a.status.credits.dailyUsed), // empty where the service reports no daily figures
  dailyRemaining: (a) => numberCell(a.status.credits.dailyRemaining), // empty where the service reports no daily figures
  monthlyLimit: (a) => a.status.credits.monthlyLimit,
  monthlyUsed: (a) => a.status.credits.monthlyUsed,
  monthlyRemaining: (a) => a.status.credits.monthlyRemaining,
  periodStart: (a) => dateCell(a.status.currentPeriodStart),
  periodEnd: (a) => dateCell(a.status.currentPeriodEnd),
  workbookCredits: (a) => a.meter.credits,
  workbookRequests: (a) => a.meter.requests,
  workbookCacheHits: (a) => a.meter.cacheHits,
};
export const CREDIT_FIELD_NAMES = Object.keys(CREDIT_FIELDS);
const DAILY = ['dailyLimit', 'dailyUsed', 'dailyRemaining'] as const;
const isDaily = (f: string): f is (typeof DAILY)[number] => (DAILY as readonly string[]).includes(f);

async function credits(ctx: FormulaContext, field: Arg): Promise<Grid> {
  const f = fieldArg(field, CREDIT_FIELD_NAMES);
  // /v3/status costs nothing: always ask, so dailyUsed is the account's figure now. CREDITS is
  // volatile (functions/account.ts): the cells of one recalculation ask together and share the
  // one request in flight (client.ts #request), so a sheet of CREDITS cells costs one read.
  const status = await ctx.client.status({ force: true });
  if (f && isDaily(f) && status.credits[f] === null) {
    // The older /v3/status shape reports monthly figures only (api-notes): nothing is derived, and
    // a guard like =IF(CREDITS("dailyRemaining")<50,...) must not read an empty text (review-r3 #11).
    throw formulaError('NOT_FOUND', `The service reports no daily credits for this key (monthly figures only), so no ${f}; see monthlyRemaining`);
  }
  const view: AccountView = { status, meter: ctx.client.meter.snapshot() };
  return recordCells(CREDIT_FIELDS, view, f, { subject: 'The account status' });
}

export const accountFormulas: Catalog = {
  CREDITS: credits,
};
