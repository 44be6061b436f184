/*
 * CRYPTO.CREDITS: plan and credit usage of the API key. Thin documented
 * wrapper (JSDoc → functions.json); the work happens in src/formulas/account.ts.
 */
import { run } from '../office/custom-functions';

/**
 * Your plan and credits: the account's figures (free to read), and what this workbook session spent.
 * @customfunction CREDITS
 * @helpurl https://localhost:3000/help/credits.html
 * @param [field] plan, rateLimitPerMinute, dailyLimit, dailyUsed, dailyRemaining, monthlyLimit, monthlyUsed, monthlyRemaining, periodStart, periodEnd, workbookCredits, workbookRequests or workbookCacheHits. Omit for all fields.
 * @param invocation Invocation
 * @returns The field's value (dates as Excel dates), or a field/value table.
 * @cancelable
 */
export function credits(field?: any, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('CREDITS', invocation, [field]);
}
