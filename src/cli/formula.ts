/**
 * npm run -s formula -- [--key KEY] [--api URL] [--deadline S] [--blanks zero] [--formats] [--date-system 1904] '<formula>'
 * npm run -s formula -- [...] --file F
 *
 * Evaluates one formula as the preview workbook does (the same engine and
 * messages): CRYPTO calls, Excel's operators and functions around them
 * (`=0.75*CRYPTO.PRICE("bitcoin")+10*CRYPTO.PRICE("ethereum")`, `=MAX(1,2)`,
 * `=CRYPTO.FEARGREED(TODAY()-90,TODAY())`), and prints one JSON object:
 * {"value": [[...]]} or {"error": "#VALUE!", "message": "..."}. There are no
 * cells: a reference (A1) is #REF!. With --file, every non-empty line of F
 * (- for stdin) is a formula: all are evaluated at once, as one
 * recalculation (lines cannot refer to one another), and one JSON line per
 * formula is printed in the file's order. Without --api the local API server runs in-process; the default
 * key is demo-pro and --key "" means no key. --deadline is each formula's
 * deadline in seconds (default 45). Dates print as the serial numbers a cell
 * holds (Excel's Range.values; what a CustomFunctionsRuntime 1.3 client shows);
 * --formats prints them as the formatted numbers a 1.4 client gets
 * ({"type":"FormattedNumber","basicValue":45292,"numberFormat":"yyyy-mm-dd"}).
 * --blanks zero passes each omitted argument as the 0 an older desktop build
 * passes for a blank cell (headers excepted); --date-system 1904 reads and
 * writes dates as a 1904-system workbook holds them, in the CRYPTO functions
 * (src/cli/workbook-host.ts) and in DATE, TODAY, YEAR... (src/engine/date-system.ts).
 * Exits 0 even when cells are errors; non-zero only when a formula cannot be
 * parsed (every line is printed first).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { calculate } from './calculate';
import { FormulaSyntaxError, syntaxTree } from '../engine/syntax';
import { formulaLines, recalculate } from './recalculation';
import { DEFAULT_KEY, openSession, type Session } from './session';

const USAGE = `usage: npm run -s formula -- [--key KEY] [--api URL] [--deadline S] [--blanks zero] [--formats] [--date-system 1904] '=CRYPTO.PRICE("bitcoin")*2'
       npm run -s formula -- [same options] --file formulas.txt\n`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: {
      key: { type: 'string' }, api: { type: 'string' }, currency: { type: 'string' }, file: { type: 'string' }, deadline: { type: 'string' },
      blanks: { type: 'string' }, formats: { type: 'boolean' }, 'date-system': { type: 'string' },
    },
    allowPositionals: true,
  });
  const text = positionals.join(' ');
  const deadline = values.deadline === undefined ? undefined : Number(values.deadline);
  if (values.file !== undefined ? text.trim() !== '' : !text.trim()) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (deadline !== undefined && !(deadline > 0 && deadline <= 600)) {
    process.stderr.write('formula: --deadline takes seconds, more than 0 and at most 600\n');
    return 2;
  }
  const blanks = values.blanks ?? 'null';
  const dateSystem = values['date-system'] ?? '1900';
  if ((blanks !== 'null' && blanks !== 'zero') || (dateSystem !== '1900' && dateSystem !== '1904')) {
    process.stderr.write('formula: --blanks takes null or zero; --date-system takes 1900 or 1904\n');
    return 2;
  }
  let lines: string[] | null = null;
  if (values.file !== undefined) {
    lines = formulaLines(readFileSync(values.file === '-' ? 0 : values.file, 'utf8'));
  } else {
    try {
      syntaxTree(text); // a formula that cannot be parsed needs no API server
    } catch (e) {
      if (!(e instanceof FormulaSyntaxError)) throw e;
      process.stdout.write(JSON.stringify({ error: '#PARSE!', message: e.message }) + '\n');
      return 1;
    }
  }
  const key = values.key === undefined ? DEFAULT_KEY : values.key === '' ? null : values.key;
  const session = await openSession({
    apiUrl: values.api,
    key,
    settings: values.currency === 'EUR' ? { defaultCurrency: 'EUR' } : undefined,
    host: deadline === undefined ? undefined : { deadlineMs: deadline * 1000 },
    workbook: { blanks, formattedNumbers: values.formats === true, dateSystem },
  });
  try {
    if (lines) return await printAll(session, lines);
    const emulator = session.emulator;
    // TODAY() and NOW() read the local API server's clock when it runs in-process: its market is that day's.
    const now = emulator ? () => emulator.clock.now() : undefined;
    await print(JSON.stringify(await calculate(session.host, text, { now })) + '\n');
    return 0;
  } finally {
    await session.close();
  }
}

/** One recalculation of the file's formulas; one JSON line each, in order. */
async function printAll(session: Session, lines: string[]): Promise<number> {
  const outcomes = await recalculate(session.host, lines);
  await print(outcomes.map((o) => JSON.stringify(o) + '\n').join(''));
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
