/**
 * How the formula tests' sessions pass blank cells: as Excel on the web does
 * (null) unless TEST_BLANKS=zero, as older desktop builds do (src/cli/workbook-host.ts).
 * test/blanks-matrix.test.ts runs the formula test files again with zero, so the
 * same assertions prove a blank means the same on both kinds of build.
 */
import type { WorkbookBehaviour } from '../../src/cli/workbook-host';

function fromEnv(): WorkbookBehaviour['blanks'] {
  const b = process.env.TEST_BLANKS ?? 'null';
  if (b !== 'null' && b !== 'zero') throw new Error(`TEST_BLANKS must be null or zero, got "${b}"`);
  return b;
}

export const TEST_WORKBOOK: Partial<WorkbookBehaviour> = { blanks: fromEnv() };
