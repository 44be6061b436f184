/**
 * A calculation session on a frozen emulator clock, where the client's sleeps
 * (pacing, Retry-After, backoff) advance that clock instead of waiting: tests
 * of minutes-long behaviour run in milliseconds and every value is reproducible.
 */
import { openSession, type Session, type SessionOptions } from '../../src/cli/session';

/** The instant every frozen-clock formula test calculates at. */
export const FROZEN_NOW = Date.parse('2026-03-15T12:00:00.000Z');

export async function frozenSession(opts: SessionOptions = {}, now = FROZEN_NOW): Promise<Session> {
  const box: { s?: Session } = {};
  const s = await openSession({
    ...opts,
    emulator: { now, ...opts.emulator },
    client: { sleep: async (ms) => box.s?.emulator?.clock.advance(ms), ...opts.client },
  });
  box.s = s;
  return s;
}
