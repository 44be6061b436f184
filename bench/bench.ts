/**
 * npm run bench [-- --latency 50] [--runs 5] [--only a,b] [--skip a,b] [--json] [--tiny]
 *
 * Runs the workloads (bench/workloads.ts) through the formula CLI's calculation
 * path against the local API server (on a thread of its own) and prints a table, or with
 * --json one JSON object on stdout (progress goes to stderr). See docs/benchmark.md.
 */
import { renderJson, renderTable } from './report';
import { runBench } from './run';
import { WORKLOAD_NAMES } from './workloads';

const USAGE = `usage: npm run bench -- [options]
  --latency <ms>[:<jitter>]  added to every API response (default 50)
  --runs <n>                 cold fills timed per workload, each on a fresh session and
                             server; times are their median (default 5; 1 with --tiny)
  --only <names>             comma-separated workloads to run (${WORKLOAD_NAMES.join(', ')})
  --skip <names>             comma-separated workloads to leave out
  --json                     print one JSON object instead of the table
  --tiny                     tiny workloads (a smoke run of the harness)
  --quiet                    no progress on stderr
  --no-browser               skip the browser workload (scale-1k and scale in the preview workbook)`;

export interface CliArgs {
  latency: string;
  runs: number | null;
  only: string[];
  skip: string[];
  json: boolean;
  tiny: boolean;
  quiet: boolean;
  help: boolean;
  browser: boolean;
}

export function parseArgs(argv: readonly string[]): CliArgs {
  const a: CliArgs = { latency: '50', runs: null, only: [], skip: [], json: false, tiny: false, quiet: false, help: false, browser: true };
  const list = (v: string | undefined, flag: string) => {
    if (v === undefined || v.startsWith('--')) throw new Error(`${flag} needs a value`);
    return v.split(',').map((s) => s.trim()).filter(Boolean);
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [flag, inline] = arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--latency': {
        const v = value();
        if (v === undefined) throw new Error('--latency needs a value');
        a.latency = v;
        break;
      }
      case '--runs': {
        const v = value();
        const n = Number(v);
        if (v === undefined || !Number.isInteger(n) || n < 1 || n > 100) throw new Error('--runs needs a whole number from 1 to 100');
        a.runs = n;
        break;
      }
      case '--only':
        a.only.push(...list(value(), '--only'));
        break;
      case '--skip':
        a.skip.push(...list(value(), '--skip'));
        break;
      case '--json':
        a.json = true;
        break;
      case '--tiny':
        a.tiny = true;
        break;
      case '--quiet':
        a.quiet = true;
        break;
      case '--no-browser':
        a.browser = false;
        break;
      case '--help':
      case '-h':
        a.help = true;
        break;
      default:
        throw new Error(`unknown option ${arg}`);
    }
  }
  return a;
}

async function main(): Promise<void> {
  let args: CliArgs;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const log = args.quiet ? () => undefined : (line: string) => process.stderr.write(`[bench] ${line}\n`);
  const report = await runBench({ latency: args.latency, runs: args.runs ?? (args.tiny ? 1 : 5), only: args.only, skip: args.skip, tiny: args.tiny, log, browser: args.browser });
  process.stdout.write(`${args.json ? renderJson(report) : renderTable(report)}\n`);
}

main().then(
  () => {
    // Sockets and timers of closed sessions must not keep the process alive.
    setTimeout(() => process.exit(process.exitCode ?? 0), 50).unref();
  },
  (e: unknown) => {
    process.stderr.write(`bench failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  },
);
