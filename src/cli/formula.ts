/**
 * npm run -s formula -- [options] '<formula>' ['<formula>' ...]
 * npm run -s formula -- [options] --file F
 * npm run -s formula -- --help
 *
 * Evaluates formulas as the preview workbook does (the same engine and
 * messages): CRYPTO calls, Excel's operators and functions around them
 * (`=0.75*CRYPTO.PRICE("bitcoin")+10*CRYPTO.PRICE("ethereum")`, `=MAX(1,2)`,
 * `=CRYPTO.FEARGREED(TODAY()-90,TODAY())`), and prints one JSON object per
 * formula: {"value": [[...]]} or {"error": "#VALUE!", "message": "..."}. There
 * are no cells: a reference (A1) is #REF!. Each argument is one formula; with
 * several, or with --file (every non-empty line of F, - for stdin), all are
 * evaluated at once, as one recalculation (they cannot refer to one another),
 * and one JSON line per formula is printed in their order. USAGE below says
 * what each option does. Dates print as the serial numbers a cell holds
 * (Excel's Range.values; what a CustomFunctionsRuntime 1.3 client shows), or
 * with --iso-dates as ISO 8601 text (isoDates below);
 * --blanks and --date-system imitate other Excel builds and workbooks in the
 * CRYPTO functions (src/cli/workbook-host.ts) and in DATE, TODAY, YEAR...
 * (src/engine/date-system.ts). Exits 0 even when cells are errors; 1 when a
 * formula cannot be parsed (every formula is printed first); 2 for a usage
 * error; 3 for any other failure.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { calculate, type JsonCell } from './calculate';
import { isoDate, type DateSystem } from '../engine/date-system';
import { FormulaSyntaxError, syntaxTree } from '../engine/syntax';
import { isFormattedNumber } from '../engine/values';
import { automaticFormat } from '../preview/workbook/format';
import { formulaLines, recalculate, type RecalcOutcome } from './recalculation';
import { DEFAULT_KEY, openSession, type Session, type SessionOptions } from './session';
import { readApiBaseUrl } from '../office/settings';

const USAGE = `usage: npm run -s formula -- [options] '=CRYPTO.PRICE("bitcoin")*2' ['=MAX(1,2)' ...]
       npm run -s formula -- [options] --file formulas.txt

Prints one JSON line per formula: {"value":[[...]]} or {"error":"#N/A","message":"..."}.
Several formulas (one argument each, or --file) are one recalculation, printed in order.

options:
  -h, --help          print this help
  --file F            read one formula per non-empty line of F (- for stdin)
  --key KEY           the API key (default demo-pro; --key "" means no key)
  --api URL           the API to ask, with or without /v3, e.g. https://api.cryptorank.io/v3
                      (https, or http on this machine; default: the local API server, started in-process)
  --currency EUR      the default currency, as set in the task pane (USD or EUR; default USD)
  --deadline S        each formula's deadline in seconds, more than 0 and at most 600 (default 45)
  --formats           dates as formatted numbers ({"type":"FormattedNumber",...}), as Excel 1.4 clients get them; default serial numbers
  --blanks zero       omitted arguments as 0, as older desktop Excel passes a blank cell (default null, as Excel on the web)
  --date-system 1904  dates as a 1904-date-system workbook holds them (default 1900)
  --iso-dates         cells formatted as dates as ISO 8601 text ("2024-01-01", "2024-01-01T09:30Z" with a time, UTC),
                      in the workbook's date system; implies --formats

exit status: 0 even when cells are errors; 1 when a formula cannot be parsed; 2 for a usage error; 3 when it fails (an unreadable file, say)
`;

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  key: { type: 'string' },
  api: { type: 'string' },
  currency: { type: 'string' },
  file: { type: 'string' },
  deadline: { type: 'string' },
  blanks: { type: 'string' },
  formats: { type: 'boolean' },
  'date-system': { type: 'string' },
  'iso-dates': { type: 'boolean' },
} as const;

/** The command line, or null (and a message on stderr) when it is not one this CLI takes: Node's own wording, then where help is. */
function readArgs(): ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>> | null {
  try {
    return parseArgs({ options: OPTIONS, allowPositionals: true });
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
    process.stderr.write(`formula: ${e.message}\nformula: npm run -s formula -- --help lists the options\n`);
    return null;
  }
}

async function main(): Promise<number> {
  const args = readArgs();
  if (!args) return 2;
  // Each argument is one formula: joined, '=1+1' '=2+2' read as the one comparison =1+1 =2+2.
  const { values, positionals: formulas } = args;
  const file = values.file;
  if (values.help) {
    await print(USAGE);
    return 0;
  }
  if (file !== undefined ? formulas.length > 0 : !formulas.some((f) => f.trim())) {
    process.stderr.write(USAGE);
    return 2;
  }
  const opts = sessionOptions(values);
  if (typeof opts === 'string') {
    process.stderr.write(`formula: ${opts}\n`);
    return 2;
  }
  const show = shown(values, opts.workbook?.dateSystem ?? '1900');
  const several = file !== undefined ? formulaLines(readFileSync(file === '-' ? 0 : file, 'utf8')) : formulas.length > 1 ? formulas : null;
  return several ? withSession(opts, (s) => printAll(s, several, show)) : printOne(opts, formulas[0], show);
}

type Values = NonNullable<ReturnType<typeof readArgs>>['values'];

/** The session the options ask for, or what is wrong with them. */
function sessionOptions(values: Values): SessionOptions | string {
  const deadline = values.deadline === undefined ? undefined : Number(values.deadline);
  if (deadline !== undefined && !(deadline > 0 && deadline <= 600)) return '--deadline takes seconds, more than 0 and at most 600';
  const blanks = values.blanks ?? 'null';
  const dateSystem = values['date-system'] ?? '1900';
  if ((blanks !== 'null' && blanks !== 'zero') || (dateSystem !== '1900' && dateSystem !== '1904')) return '--blanks takes null or zero; --date-system takes 1900 or 1904';
  const currency = values.currency?.toUpperCase() ?? 'USD';
  if (currency !== 'USD' && currency !== 'EUR') return '--currency takes USD or EUR';
  const api = apiUrl(values.api);
  if (typeof api === 'object') return `--api: ${api.error}`;
  return {
    apiUrl: api,
    key: values.key === undefined ? DEFAULT_KEY : values.key === '' ? null : values.key,
    settings: { defaultCurrency: currency },
    host: deadline === undefined ? undefined : { deadlineMs: deadline * 1000 },
    // --iso-dates prints what --formats prints, its dates as text: a date is known by its format.
    workbook: { blanks, formattedNumbers: values.formats === true || values['iso-dates'] === true, dateSystem },
  };
}

/**
 * --api as the pane's settings read the API address (readApiBaseUrl): with or without /v3, which
 * the client adds to every path (the base as api-notes writes it gave "Cannot GET /v3/v3/status",
 * review-r3), and a trailing slash; https, or http on this machine only. Empty: the local API server.
 */
function apiUrl(text: string | undefined): string | undefined | { error: string } {
  if (text === undefined || text.trim() === '') return undefined;
  const read = readApiBaseUrl(text, '');
  return 'url' in read ? read.url : read;
}

async function withSession(opts: SessionOptions, run: (session: Session) => Promise<number>): Promise<number> {
  const session = await openSession(opts);
  try {
    return await run(session);
  } finally {
    await session.close();
  }
}

/** A formula's outcome as printed: as calculated, or with --iso-dates its dates as text. */
type Shown = (outcome: RecalcOutcome, text: string) => RecalcOutcome;

function shown(values: Values, dates: DateSystem): Shown {
  return values['iso-dates'] ? (o, text) => isoDates(o, text, dates) : (o) => o;
}

/**
 * --iso-dates: a cell whose number format shows a day, as ISO 8601 text in the
 * workbook's date system (isoDate, date-system.ts). A cell's format is known
 * where the add-in's function gave one (a formatted number, as --formats prints
 * it: 45292 under "yyyy-mm-dd" is "2024-01-01") and, by the rule the preview
 * formats its cells with (automaticFormat), for a formula that begins with a
 * DATE, TODAY, NOW, EDATE or EOMONTH call. A CRYPTO call the engine computed
 * on (a TODAY() argument, INDEX over one) keeps its formatted numbers too
 * (calculate.ts outcomeOf, with --formats).
 */
function isoDates(outcome: RecalcOutcome, text: string, dates: DateSystem): RecalcOutcome {
  if (!('value' in outcome)) return outcome;
  const t = text.trim();
  const automatic = automaticFormat(t.startsWith('=') ? t : `=${t}`);
  const cell = (c: JsonCell): JsonCell => {
    if (isFormattedNumber(c)) return isoDate(c.basicValue, c.numberFormat, dates) ?? c;
    if (typeof c === 'number' && automatic) return isoDate(c, automatic, dates) ?? c;
    return c;
  };
  return { value: outcome.value.map((row) => row.map(cell)) };
}

/** One formula: one JSON line; a formula that cannot be parsed needs no API server. */
async function printOne(opts: SessionOptions, text: string, show: Shown): Promise<number> {
  try {
    syntaxTree(text);
  } catch (e) {
    if (!(e instanceof FormulaSyntaxError)) throw e;
    await print(JSON.stringify({ error: '#PARSE!', message: e.message }) + '\n');
    return 1;
  }
  return withSession(opts, async (session) => {
    await print(JSON.stringify(show(await calculate(session.host, text, { now: serverClock(session) }), text)) + '\n');
    return 0;
  });
}

/** TODAY() and NOW() read the local API server's clock when it runs in-process: its market is that day's. */
function serverClock(session: Session): (() => number) | undefined {
  const emulator = session.emulator;
  return emulator ? () => emulator.clock.now() : undefined;
}

/** One recalculation of several formulas (a file's, or the arguments); one JSON line each, in order. */
async function printAll(session: Session, lines: string[], show: Shown): Promise<number> {
  const outcomes = await recalculate(session.host, lines, { now: serverClock(session) });
  await print(outcomes.map((o, i) => JSON.stringify(show(o, lines[i])) + '\n').join(''));
  return outcomes.some((o) => 'error' in o && o.error === '#PARSE!') ? 1 : 0;
}

/** Resolves once the text is handed to the OS: process.exit() would cut a long write to a pipe short. */
function print(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text, (e) => (e ? reject(e) : resolve())));
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`formula: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(3);
  },
);
