/**
 * A calculation session whose requests pass through a hostile server
 * (harness/hostile-server.ts) in front of a local API server: the scenario
 * answers the requests it picks (a live refusal the emulator does not give),
 * the API server the rest. close() closes what was opened here, session first.
 */
import { openSession, type Session, type SessionOptions } from '../../src/cli/session';
import { startEmulator, type Emulator } from '../../src/emulator/server';
import { startHostileServer, type HostileServer, type Scenario } from '../../harness/hostile-server';
import { FROZEN_NOW } from '../../harness/instant';
import { TEST_DIALECT } from './dialect';

export interface BehindHostileOptions extends Omit<SessionOptions, 'apiUrl'> {
  /**
   * The API server behind the hostile one (left open). Omitted: one started
   * here at the frozen instant in the tests' dialect, with `emulator`'s options.
   */
  upstream?: Emulator;
}

export interface BehindHostile {
  session: Session;
  hostile: HostileServer;
  close(): Promise<void>;
}

export async function behindHostile(scenario: Scenario, opts: BehindHostileOptions = {}): Promise<BehindHostile> {
  const { upstream, emulator, ...sessionOpts } = opts;
  const em = upstream ?? (await startEmulator({ now: FROZEN_NOW, dialect: TEST_DIALECT, ...emulator }));
  const closers: (() => Promise<unknown>)[] = upstream ? [] : [() => em.close()];
  const close = async () => {
    for (const c of closers.reverse()) await c();
  };
  try {
    const hostile = await startHostileServer(em.url);
    closers.push(() => hostile.close());
    hostile.play(scenario);
    const session = await openSession({ ...sessionOpts, apiUrl: hostile.url });
    closers.push(() => session.close());
    return { session, hostile, close };
  } catch (e) {
    await close();
    throw e;
  }
}
