/**
 * Calculation sessions on a frozen emulator clock, at the frozen instant unless
 * told otherwise. frozenSession: the client's sleeps (pacing, Retry-After,
 * backoff) advance that clock instead of waiting, so tests of minutes-long
 * behaviour run in milliseconds and every value is reproducible. testSession:
 * the same session with real sleeps.
 */
import { after, before } from 'node:test';
import { openSession, type Session, type SessionOptions } from '../../src/cli/session';
import { FROZEN_NOW } from '../../harness/instant';
import { TEST_DIALECT } from './dialect';
import { TEST_WORKBOOK } from './workbook';

export { FROZEN_NOW };

/**
 * A session on the local API server stopped at `now`, in the formula tests'
 * dialect and workbook, whose client sleeps for real: the server's clock stays
 * at `now` whatever the client waits (its rate-limit window runs on real time).
 * For tests that never wait long, or that must not move the server's "now".
 */
export function testSession(opts: SessionOptions = {}, now = FROZEN_NOW): Promise<Session> {
  return openSession({ workbook: TEST_WORKBOOK, ...opts, emulator: { now, dialect: TEST_DIALECT, ...opts.emulator } });
}

/** testSession, with the client's sleeps advancing the server's clock instead of waiting. */
export async function frozenSession(opts: SessionOptions = {}, now = FROZEN_NOW): Promise<Session> {
  const box: { s?: Session } = {};
  const s = await testSession({ ...opts, client: { sleep: async (ms) => box.s?.emulator?.clock.advance(ms), ...opts.client } }, now);
  box.s = s;
  return s;
}

export interface KeyedSessions {
  pro: Session;
  sandbox: Session;
  nokey: Session;
}

/** Frozen-clock sessions on the Pro key, the Sandbox key and no key: opened before the file's tests, closed after them. */
export function keyedFrozenSessions(): KeyedSessions {
  const k = {} as KeyedSessions;
  before(async () => {
    [k.pro, k.sandbox, k.nokey] = await Promise.all([frozenSession(), frozenSession({ key: 'demo-sandbox' }), frozenSession({ key: null })]);
  });
  after(async () => {
    await Promise.all([k.pro?.close(), k.sandbox?.close(), k.nokey?.close()]);
  });
  return k;
}
