/**
 * A browser test file's rig (harness/pane-rig.ts): started before the file's
 * tests, closed after them. A file's own before hook that needs it awaits
 * `rig.ready()`: Node 20 starts a file's top-level before hooks together, not
 * one after the other (package.json allows node >= 20.11).
 */
import { after, before } from 'node:test';
import { paneRig, type PaneRig, type PaneRigOptions } from '../../harness/pane-rig';

export type { PaneRig };

export interface UsedPaneRig extends PaneRig {
  /** The rig, once its before hook has started it. */
  ready(): Promise<PaneRig>;
}

export function usePaneRig(opts: PaneRigOptions): UsedPaneRig {
  let rig: PaneRig | undefined;
  let settle!: { resolve: (r: PaneRig) => void; reject: (e: unknown) => void };
  const ready = new Promise<PaneRig>((resolve, reject) => (settle = { resolve, reject }));
  ready.catch(() => {}); // the before hook reports the failure; nobody need await this
  before(async () => {
    try {
      rig = await paneRig(opts);
      settle.resolve(rig);
    } catch (e) {
      settle.reject(e);
      throw e;
    }
  });
  after(() => rig?.close());
  const started = (): PaneRig => {
    if (!rig) throw new Error('the pane rig is used before its before() hook started it');
    return rig;
  };
  return {
    ready: () => ready,
    get em() {
      return started().em;
    },
    get server() {
      return started().server;
    },
    get browser() {
      return started().browser;
    },
    get dist() {
      return started().dist;
    },
    get pageErrors() {
      return started().pageErrors;
    },
    newPage: (o) => started().newPage(o),
    openPage: (p, o) => started().openPage(p, o),
    close: () => started().close(),
  };
}
