/**
 * The transport floor: what a cold fill's own requests cost this machine with
 * no add-in code at all. The requests the API server saw during the cold pass
 * are replayed against a fresh server with the same latency, in the same
 * waves (a request goes after the answers it could have waited for: those
 * sent before it arrived), each fetched and its body parsed as JSON, nothing
 * else. The latency bound counts round trips only; the floor adds what this
 * machine's fetch, sockets and JSON.parse take for the same answers, measured
 * in the same run, so `cold − floor` is the add-in's own time on it
 * (docs/benchmark.md). Diagnostic: no target reads it.
 */

/** A request as the API server saw it: path and query, when it arrived and when its answer left (server clock, ms). */
export interface SeenRequest {
  method: string;
  url: string;
  arrived: number;
  answered: number;
}

/**
 * The requests in waves: a request is one wave after the latest wave any of
 * whose answers had left before it arrived. A request the client sent late
 * (busy, not waiting) can land a wave later than it needed: the floor then
 * counts a round trip the add-in caused, and the report shows the waves next
 * to the latency bound's trips.
 */
export function waves(seen: readonly SeenRequest[]): SeenRequest[][] {
  const sorted = [...seen].sort((a, b) => a.arrived - b.arrived);
  const level: number[] = [];
  const out: SeenRequest[][] = [];
  sorted.forEach((r, i) => {
    let w = 0;
    for (let j = 0; j < i; j++) if (sorted[j].answered <= r.arrived) w = Math.max(w, level[j] + 1);
    level[i] = w;
    (out[w] ??= []).push(r);
  });
  return out;
}

/** The waves replayed at `origin` with `key`: each wave's requests at once, each answer read whole and parsed; ms. */
export async function replay(origin: string, key: string, ws: readonly SeenRequest[][]): Promise<number> {
  const t0 = performance.now();
  for (const wave of ws) {
    await Promise.all(
      wave.map(async (r) => {
        const res = await fetch(origin + r.url, { method: r.method, headers: { 'X-Api-Key': key, Accept: 'application/json' } });
        const text = await res.text();
        try {
          JSON.parse(text);
        } catch {
          // an answer that is not JSON was read all the same: that is its whole cost here
        }
      }),
    );
  }
  return performance.now() - t0;
}
