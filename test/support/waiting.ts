/**
 * Waiting in the browser tests for what a page does on its own time: a
 * condition polled every 100 ms until it holds, or a failure naming what was
 * awaited.
 */
export type Condition = () => Promise<boolean> | boolean;

export async function until(what: string, cond: Condition, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    if (await cond()) return;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
