/**
 * `npm run emulator -- [options]`: serve the local CryptoRank v3 emulator on
 * http://127.0.0.1:<port>/v3 until SIGINT/SIGTERM. See docs/emulator.md.
 */
import { parseArgs } from 'node:util';
import { PLAN_LIMITS } from '../api/endpoints';
import { DEMO_KEYS } from './accounts';
import { formatFaultSpec, parseFaultSpec } from './faults';
import { DIALECTS, isDialect, parseLatency, parseNow, startEmulator, type Dialect, type EmulatorOptions, type ResponseLogEntry } from './server';

const HELP = `Usage: npm run emulator -- [options]

Serves a local emulator of the CryptoRank v3 API on http://127.0.0.1:<port>/v3.

Options:
  --port <n>          TCP port on 127.0.0.1 (default 4010, package.json config.emulator_port; 0 = a free port)
  --latency <ms[:j]>  add ms (± j jitter) to every response, e.g. 50 or 50:20
  --rpm <n>           override every plan's requests-per-minute limit
  --faults <spec>     random faults, e.g. 429:0.05,500:0.05,hang:0.01,malformed:0.02,drop:0.01,slow:0.05
  --seed <n>          seed of fault draws and latency jitter (default 1)
  --market-seed <n>   seed of the synthetic market (default: the market's own)
  --now <ISO date>    fixed clock (default: the real clock)
  --dialect <d>       answer shapes: spec (default), docs or legacy (docs/emulator.md)
  --verbose           log every request
  --help              this text
`;

function int(name: string, s: string | undefined): number | undefined {
  if (s === undefined) return undefined;
  if (!/^-?\d+$/.test(s)) throw new Error(`--${name} must be an integer, got "${s}"`);
  return Number(s);
}

function parseDialect(s: string | undefined): Dialect | undefined {
  if (s === undefined) return undefined;
  if (!isDialect(s)) throw new Error(`--dialect must be one of ${DIALECTS.join(', ')}, got "${s}"`);
  return s;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      latency: { type: 'string' },
      rpm: { type: 'string' },
      faults: { type: 'string' },
      seed: { type: 'string' },
      'market-seed': { type: 'string' },
      now: { type: 'string' },
      dialect: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(HELP);
    return;
  }

  const opts: EmulatorOptions = {
    port: int('port', values.port) ?? int('port', process.env.npm_package_config_emulator_port) ?? 4010,
    latency: values.latency !== undefined ? parseLatency(values.latency) : undefined,
    rpm: int('rpm', values.rpm),
    faults: values.faults !== undefined ? parseFaultSpec(values.faults) : undefined,
    seed: int('seed', values.seed),
    marketSeed: int('market-seed', values['market-seed']),
    now: values.now !== undefined ? parseNow(values.now) : undefined,
    dialect: parseDialect(values.dialect),
  };
  if (values.verbose) {
    opts.onResponse = (e: ResponseLogEntry) => {
      const status = e.status === 0 ? e.fault : String(e.status);
      const extra = [e.key && `key=${e.key}`, e.code && `code=${e.code}`, e.credits && `credits=${e.credits}`, e.delay && `+${e.delay}ms`]
        .filter(Boolean)
        .join(' ');
      process.stdout.write(`${new Date().toISOString()} ${e.method} ${e.url} ${status} ${extra}\n`);
    };
  }

  const emulator = await startEmulator(opts);
  const lat = emulator.latency;
  const lines = [
    `CryptoRank v3 emulator listening on ${emulator.baseUrl}`,
    `  url: ${emulator.url}`,
    '',
    'Demo keys (header X-Api-Key):',
    ...Object.entries(DEMO_KEYS).map(([key, plan]) => {
      if (!plan) return `  ${key.padEnd(14)} no active subscription`;
      const l = PLAN_LIMITS[plan];
      const rpm = emulator.rpm ?? l.rateLimitPerMinute;
      return `  ${key.padEnd(14)} ${plan.padEnd(9)} ${rpm} req/min, ${l.dailyCredits} credits/day, ${l.monthlyCredits} credits/month`;
    }),
    '',
    'Options in effect:',
    `  latency: ${lat.ms} ms${lat.jitter ? ` ± ${lat.jitter} ms` : ''}`,
    `  rpm:     ${emulator.rpm ?? 'per plan'}`,
    `  faults:  ${formatFaultSpec(emulator.faults.rates)}`,
    `  seed:    ${emulator.seed}`,
    `  dialect: ${emulator.dialect}`,
    `  clock:   ${emulator.clock.fixed ? `fixed at ${new Date(emulator.clock.now()).toISOString()}` : 'real time'}`,
    '',
    `Try: curl -H 'X-Api-Key: demo-pro' ${emulator.baseUrl}/status`,
    'Stop with Ctrl+C.',
    '',
  ];
  process.stdout.write(lines.join('\n'));

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: stopping the emulator\n`);
    emulator.close().then(
      () => process.exit(0),
      (err) => {
        process.stderr.write(`emulator: close failed: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`emulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(2);
});
