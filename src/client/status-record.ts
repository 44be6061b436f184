/**
 * The /v3/status record as the client keeps and hands it out: the schema's
 * known fields only, copied, within bounds. The plan gate learns it, the
 * credit meter shows it, and client.status() answers it.
 */
import type { AccountStatus } from '../api/records';

/** The longest plan name kept: the live names are a word or two (api-notes, "Plans"). */
const MAX_PLAN_NAME = 64;
/** The most endpoint paths kept: the live Sandbox list has 20, the provider's inventory 81 (api-notes, "Round two"). */
const MAX_STATUS_ENDPOINTS = 500;
/** The longest path kept: longer ones match no path of the endpoint table, so are dropped rather than clipped. */
const MAX_ENDPOINT_PATH = 200;
/** An ISO date longer than this is written again from its instant (Date.parse reads far longer texts). */
const MAX_DATE_TEXT = 64;

/**
 * A /v3/status record as the client keeps it: the schema's known fields only,
 * copied, within bounds. The validated answer is the server's object, extra keys
 * and all; kept as is, one deeply nested extra field made every snapshot's
 * structuredClone overflow the stack (review finding F6).
 */
export function statusRecord(s: AccountStatus): AccountStatus {
  const c = s.credits;
  const date = (d: string) => {
    if (d.length <= MAX_DATE_TEXT) return d;
    const t = Date.parse(d);
    return Number.isNaN(t) ? d.slice(0, MAX_DATE_TEXT) : new Date(t).toISOString();
  };
  return {
    plan: s.plan.slice(0, MAX_PLAN_NAME),
    rateLimitPerMinute: s.rateLimitPerMinute,
    credits: {
      dailyLimit: c.dailyLimit,
      dailyUsed: c.dailyUsed,
      dailyRemaining: c.dailyRemaining,
      monthlyLimit: c.monthlyLimit,
      monthlyUsed: c.monthlyUsed,
      monthlyRemaining: c.monthlyRemaining,
    },
    currentPeriodStart: date(s.currentPeriodStart),
    currentPeriodEnd: date(s.currentPeriodEnd),
    endpoints: Array.isArray(s.endpoints) ? endpointPaths(s.endpoints) : null,
  };
}

/** Strings only, the first MAX_STATUS_ENDPOINTS: a list of millions is not walked whole. */
function endpointPaths(list: readonly unknown[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < list.length && out.length < MAX_STATUS_ENDPOINTS; i++) {
    const p = list[i];
    if (typeof p === 'string' && p.length <= MAX_ENDPOINT_PATH) out.push(p);
  }
  return out;
}
