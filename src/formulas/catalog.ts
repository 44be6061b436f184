/**
 * Every CRYPTO.* formula by id. The ids are the custom function ids in
 * functions.json (the JSDoc @customfunction id), stable once shipped.
 */
import type { Catalog } from './formula-context';
import { marketFormulas } from './market';
import { historyFormulas } from './history';
import { analyticsFormulas } from './analytics';
import { supplyFormulas } from './supply';
import { globalFormulas } from './global';
import { chainFormulas } from './chains';
import { accountFormulas } from './account';
import { liveFormulas } from './live';
import { asofFormulas } from './asof';
import { coinFormulas } from './coin';

export const CATALOG: Catalog = {
  ...marketFormulas,
  ...coinFormulas,
  ...historyFormulas,
  ...analyticsFormulas,
  ...supplyFormulas,
  ...globalFormulas,
  ...chainFormulas,
  ...accountFormulas,
  ...liveFormulas,
  ...asofFormulas,
};
