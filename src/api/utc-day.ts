/**
 * The UTC day: the unit the API's history, its plans' reach and the daily
 * credits count in (answers carry UTC times; a plan's day and a daily budget
 * turn at 00:00 UTC). One definition for the add-in, its emulator and bench.
 */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** The UTC day (days since the epoch) that holds `ms`. */
export const dayOf = (ms: number): number => Math.floor(ms / DAY_MS);

/** `YYYY-MM-DD` of the UTC day that holds `ms`: how a message names a day. */
export const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** The start (00:00 UTC) of the day that holds `ms`. */
export const startOfUtcDay = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;
