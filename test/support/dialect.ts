/**
 * The dialect the formula tests run the local API server in: `spec` unless
 * TEST_DIALECT says otherwise. test/dialect-matrix.test.ts runs the formula
 * test files again under each other dialect, so the same assertions prove the
 * add-in reads the same values from every documented shape.
 */
import { isDialect, type Dialect } from '../../src/emulator/server';

function fromEnv(): Dialect {
  const d = process.env.TEST_DIALECT ?? 'spec';
  if (!isDialect(d)) throw new Error(`TEST_DIALECT must be spec, docs or legacy, got "${d}"`);
  return d;
}

export const TEST_DIALECT: Dialect = fromEnv();
