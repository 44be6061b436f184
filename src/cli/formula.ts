/**
 * npm run -s formula -- [--key KEY] [--api URL] '<formula>'
 *
 * Evaluates one CRYPTO.* formula as Excel would and prints one JSON object:
 * {"value": [[...]]} or {"error": "#VALUE!", "message": "..."}. Without --api
 * the local API server runs in-process; the default key is demo-pro and
 * --key "" means no key. Exits non-zero only when the formula cannot be parsed.
 */
import { parseArgs } from 'node:util';
import { calculate } from './calculate';
import { FormulaSyntaxError, parseFormula } from './formula-parser';
import { DEFAULT_KEY, openSession } from './session';

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    options: { key: { type: 'string' }, api: { type: 'string' }, currency: { type: 'string' } },
    allowPositionals: true,
  });
  const text = positionals.join(' ');
  if (!text.trim()) {
    process.stderr.write("usage: npm run -s formula -- [--key KEY] [--api URL] '=CRYPTO.PRICE(\"bitcoin\")'\n");
    return 2;
  }
  try {
    parseFormula(text); // a formula that cannot be parsed needs no API server
  } catch (e) {
    if (!(e instanceof FormulaSyntaxError)) throw e;
    process.stdout.write(JSON.stringify({ error: '#PARSE!', message: e.message }) + '\n');
    return 1;
  }
  const key = values.key === undefined ? DEFAULT_KEY : values.key === '' ? null : values.key;
  const session = await openSession({
    apiUrl: values.api,
    key,
    settings: values.currency === 'EUR' ? { defaultCurrency: 'EUR' } : undefined,
  });
  try {
    const outcome = await calculate(session.host, text);
    process.stdout.write(JSON.stringify(outcome) + '\n');
    return 0;
  } finally {
    await session.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`formula: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(3);
  },
);
