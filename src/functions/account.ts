/*
 * CRYPTO.CREDITS: plan and credit usage of the API key. Thin documented
 * wrapper (JSDoc → functions.json); the work happens in src/formulas/account.ts.
 */
import { run } from '../office/custom-functions';

// Custom enums (@customenum): the values Excel offers in AutoComplete for a choice argument; older builds ignore them and the argument takes text as before (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-custom-enums). The formulas still accept every spelling they list in their errors; test/custom-enums.test.ts keeps these lists and theirs in step. Values in double quotes: the generator reads them as JSON.

/**
 * Fields of CRYPTO.CREDITS.
 * @customenum {string}
 */
enum CreditsField {
  /** Field: plan */
  plan = "plan",
  /** Field: rateLimitPerMinute */
  rateLimitPerMinute = "rateLimitPerMinute",
  /** Field: dailyLimit */
  dailyLimit = "dailyLimit",
  /** Field: dailyUsed */
  dailyUsed = "dailyUsed",
  /** Field: dailyRemaining */
  dailyRemaining = "dailyRemaining",
  /** Field: monthlyLimit */
  monthlyLimit = "monthlyLimit",
  /** Field: monthlyUsed */
  monthlyUsed = "monthlyUsed",
  /** Field: monthlyRemaining */
  monthlyRemaining = "monthlyRemaining",
  /** Field: periodStart */
  periodStart = "periodStart",
  /** Field: periodEnd */
  periodEnd = "periodEnd",
  /** Field: workbookCredits */
  workbookCredits = "workbookCredits",
  /** Field: workbookRequests */
  workbookRequests = "workbookRequests",
  /** Field: workbookCacheHits */
  workbookCacheHits = "workbookCacheHits",
}

/**
 * Your plan and credits: the account's figures (free to read), and what this workbook session spent.
 * @customfunction CREDITS
 * @helpurl https://localhost:3000/help/credits.html
 * @param [field] plan, rateLimitPerMinute, dailyLimit, dailyUsed, dailyRemaining, monthlyLimit, monthlyUsed, monthlyRemaining, periodStart, periodEnd, workbookCredits, workbookRequests or workbookCacheHits. Omit for all fields.
 * @param invocation Invocation
 * @returns The field's value (dates as Excel dates), or a field/value table. Updated at every recalculation of the workbook (volatile), like NOW(); a daily figure the service does not report is #N/A saying so.
 * @cancelable
 * @requiresAddress
 * @volatile
 */
// @volatile: its arguments never change, so a non-volatile CREDITS kept the figures of when it
// was typed (review-r3 #5). A volatile custom function "recalculates every time Excel recalculates"
// (learn.microsoft.com/office/dev/add-ins/excel/custom-functions-volatile). /v3/status is free
// (api-notes) and the CREDITS cells of one recalculation, called together, share one request
// (the client's in-flight sharing; test/formulas-global.test.ts). Guess: the service does not
// count /v3/status against the per-minute rate (undocumented); the pacer does not either.
export function credits(field?: CreditsField, invocation?: CustomFunctions.CancelableInvocation): Promise<any[][]> {
  return run('CREDITS', invocation, [field]);
}
