/**
 * The universe: every currency (the well-known ones plus about 2,080 generated),
 * categories, tags, ecosystems, blockchains, contracts, persons and investors,
 * with each coin's price/supply model parameters. Built once per seed; nothing
 * here depends on the clock.
 */
import type { LIFECYCLES } from '../../api/records';
import { ANCHOR_DAY, dayIndex, iso } from './calendar';
import {
  CATEGORIES, KNOWN_CHAINS, KNOWN_COINS, KNOWN_PERSONS, TAG_SLUGS, TOKEN_CHAIN_WEIGHTS, titleOf,
  type CurrencyType, type KnownCoin,
} from './known';
import { fundName, makeAddress, makeName, makeSymbol, personName, slugOf } from './names';
import { Rng } from './prng';
import { makeVestingPlan, type VestingPlan } from './vesting';

export type Lifecycle = (typeof LIFECYCLES)[number];

export interface Ref {
  id: number;
  slug: string;
  name: string;
}

export interface PriceModel {
  /** ln(price) on the anchor day, before noise. */
  logAnchor: number;
  beta: number;
  idio: number;
  vol: number;
  trendPre: number;
  trendPost: number;
  stable: boolean;
  /** 24h volume as a share of market cap on the anchor day. */
  volRatio: number;
}

export type SupplyModel =
  /** Capped: circ(d) = max * (1 - k e^{-(d-start)/tau}); uncapped (max null): circ = anchor * (1 + inflation * years). */
  | { kind: 'emission'; anchor: number; max: number | null; k: number; tau: number; inflation: number; held: number }
  /** Stablecoins: supply follows the market and a slow trend. */
  | { kind: 'stable'; anchor: number; trendPre: number; trendPost: number }
  | { kind: 'vesting'; plan: VestingPlan };

export interface Contract {
  chainId: number;
  address: string;
  decimals: number | null;
}

export interface Coin {
  index: number;
  id: number;
  slug: string;
  symbol: string | null;
  name: string;
  type: CurrencyType;
  /** Declared lifecycle; a `traded` coin whose listing day is after "today" shows as `scheduled`. */
  lifecycle: Lifecycle;
  categoryId: number | null;
  tagIds: number[];
  ecosystemIds: number[];
  description: string | null;
  links: { type: string; url: string }[];
  imageUrl: string | null;
  listingDate: string | null;
  /** First day of the coin's daily series (day index, >= 0); null when it never traded. */
  startDay: number | null;
  contracts: Contract[];
  /** The one chain whose market cap this coin counts towards: the chain it is native to, else its first contract's chain. */
  homeChainId: number | null;
  price: PriceModel | null;
  supply: SupplyModel | null;
  vesting: VestingPlan | null;
  /** Has a holders snapshot (traded tokens with a contract). */
  holders: boolean;
  /** Market cap on the anchor day (orders the altcoin-season set). */
  anchorCap: number;
}

export interface Chain {
  id: number;
  slug: string;
  name: string;
  symbol: string | null;
  nativeCoinId: number | null;
  explorerUrl: string | null;
  kind: 'evm' | 'solana' | 'tron' | 'ton' | 'other';
  launchDay: number;
  tvl: number;
  dexShare: number;
  ecosystemId: number;
  imageUrl: string;
}

export interface Investor {
  id: number;
  name: string;
  slug: string;
  tier: number | null;
  type: string;
}

export interface Universe {
  seed: number;
  coins: Coin[];
  byId: Map<number, Coin>;
  chains: Chain[];
  chainById: Map<number, Chain>;
  categories: Ref[];
  categoryById: Map<number, Ref>;
  tags: Ref[];
  tagById: Map<number, Ref>;
  ecosystems: Ref[];
  ecosystemById: Map<number, Ref>;
  persons: Ref[];
  investors: Investor[];
  investorById: Map<number, Investor>;
}

/** Number of generated (not well-known) currencies. */
export const GENERATED_COUNT = 2080;
/** Generated currencies get ids from here up. */
export const GENERATED_ID_BASE = 1001;

const dayOfIso = (s: string): number => dayIndex(Date.parse(s + 'T00:00:00Z'));
const image = (slug: string): string => `https://images.cryptorank.io/coins/150x150.${slug}.png`;

function links(rng: Rng, slug: string): { type: string; url: string }[] {
  const out = [
    { type: 'web', url: `https://${slug}.io` },
    { type: 'twitter', url: `https://x.com/${slug.replace(/-/g, '')}` },
  ];
  if (rng.chance(0.6)) out.push({ type: 'github', url: `https://github.com/${slug}` });
  if (rng.chance(0.5)) out.push({ type: 'whitepaper', url: `https://${slug}.io/whitepaper.pdf` });
  if (rng.chance(0.4)) out.push({ type: 'telegram', url: `https://t.me/${slug.replace(/-/g, '')}` });
  if (rng.chance(0.3)) out.push({ type: 'discord', url: `https://discord.gg/${slug.replace(/-/g, '')}` });
  return out;
}

/** Capped emission parameters so that circ(ANCHOR_DAY) = supply and circ(start) > 0. */
function cappedEmission(supply: number, max: number, start: number, tau: number, held: number): SupplyModel {
  const gap = Math.max(1e-6, 1 - supply / max);
  let k = gap * Math.exp((ANCHOR_DAY - start) / tau);
  if (k > 0.9) {
    tau = (ANCHOR_DAY - start) / Math.log(0.9 / gap);
    k = 0.9;
  }
  return { kind: 'emission', anchor: supply, max, k, tau, inflation: 0, held };
}

export function buildUniverse(seed: number): Universe {
  const rng = new Rng(seed ^ 0x5eed5eed);

  // ------------------------------------------------------------ reference lists
  const categories: Ref[] = CATEGORIES.map(([id, slug, name]) => ({ id, slug, name }));
  const categoryBySlug = new Map(categories.map((c) => [c.slug, c]));
  const tags: Ref[] = TAG_SLUGS.map((slug, i) => ({ id: 100 + 3 * i, slug, name: titleOf(slug) }));
  const tagBySlug = new Map(tags.map((t) => [t.slug, t]));
  const chains: Chain[] = KNOWN_CHAINS.map((c, i) => ({
    id: i + 1,
    slug: c.slug,
    name: c.name,
    symbol: c.symbol,
    nativeCoinId: c.native ? KNOWN_COINS.find((k) => k.slug === c.native)!.id : null,
    explorerUrl: c.explorer,
    kind: c.kind,
    launchDay: dayOfIso(c.launched),
    tvl: c.tvl,
    dexShare: c.dexShare,
    ecosystemId: 501 + i,
    imageUrl: `https://images.cryptorank.io/blockchains/150x150.${c.slug}.png`,
  }));
  const chainBySlug = new Map(chains.map((c) => [c.slug, c]));
  const ecosystems: Ref[] = chains.map((c) => ({ id: c.ecosystemId, slug: `${c.slug}-ecosystem`, name: `${c.name} Ecosystem` }));
  const persons: Ref[] = [
    ...KNOWN_PERSONS,
    ...Array.from({ length: 50 }, (_, i) => {
      const name = personName(i);
      return { id: 2001 + i * 3, name, slug: `${slugOf(name)}-${i + 1}` };
    }),
  ];
  const investors: Investor[] = [];
  const fundSlugs = new Set<string>();
  while (investors.length < 40) {
    const name = fundName(rng);
    const slug = slugOf(name);
    if (fundSlugs.has(slug)) continue;
    fundSlugs.add(slug);
    investors.push({
      id: 7001 + investors.length,
      name,
      slug,
      tier: rng.chance(0.85) ? rng.int(1, 5) : null,
      type: rng.weighted(['Venture', 'Angel Investor', 'Exchange', 'Accelerator', 'Market Maker'], [70, 10, 8, 7, 5]),
    });
  }
  const investorIds = investors.map((x) => x.id);

  const coins: Coin[] = [];
  const usedSlugs = new Set<string>();
  const usedSymbols = new Set<string>(KNOWN_COINS.map((k) => k.symbol));

  const ecosystemsOf = (contracts: Contract[], native: Chain | undefined): number[] => {
    const ids = new Set<number>();
    if (native) ids.add(native.ecosystemId);
    for (const c of contracts) ids.add(chains[c.chainId - 1].ecosystemId);
    return [...ids];
  };
  const contractOn = (chain: Chain): Contract => ({
    chainId: chain.id,
    address: makeAddress(rng, chain.kind),
    decimals: chain.kind === 'evm' ? rng.pick([18, 18, 18, 6, 8]) : chain.kind === 'solana' ? rng.pick([6, 9]) : chain.kind === 'other' ? null : rng.pick([6, 9]),
  });

  // ------------------------------------------------------------ well-known coins
  for (const k of KNOWN_COINS) {
    usedSlugs.add(k.slug);
    const native = k.native ? chainBySlug.get(k.native) : undefined;
    const contracts = (k.contracts ?? []).map((s) => contractOn(chainBySlug.get(s)!));
    const startDay = Math.max(0, dayOfIso(k.listed));
    const vesting = k.vesting ? makeVestingPlan(rng, k.id, k.slug, k.max ?? k.supply * 2, startDay, investorIds) : null;
    coins.push(knownCoin(k, coins.length, native, contracts, startDay, vesting));
  }

  function knownCoin(k: KnownCoin, index: number, native: Chain | undefined, contracts: Contract[], startDay: number, vesting: VestingPlan | null): Coin {
    let supply: SupplyModel;
    if (vesting) supply = { kind: 'vesting', plan: vesting };
    else if (k.stable) supply = { kind: 'stable', anchor: k.supply, trendPre: k.slug === 'tether' ? 0.34 : 0.3, trendPost: 0.08 };
    else if (k.max !== null) supply = cappedEmission(k.supply, k.max, startDay, 2026, k.slug === 'ripple' ? 1 : 0.01);
    else supply = { kind: 'emission', anchor: k.supply, max: null, k: 0, tau: 1, inflation: k.slug === 'ethereum' ? 0.04 : 0.035, held: 0 };
    return {
      index,
      id: k.id,
      slug: k.slug,
      symbol: k.symbol,
      name: k.name,
      type: k.type,
      lifecycle: 'traded',
      categoryId: categoryBySlug.get(k.category)!.id,
      tagIds: k.tags.map((t) => tagBySlug.get(t)!.id),
      ecosystemIds: ecosystemsOf(contracts, native),
      description: `${k.name} (${k.symbol}) is one of the largest crypto assets by market capitalization.`,
      links: links(rng, k.slug),
      imageUrl: image(k.slug),
      listingDate: iso(Date.parse(k.listed + 'T00:00:00Z')),
      startDay,
      contracts,
      homeChainId: native ? native.id : contracts.length ? contracts[0].chainId : null,
      price: {
        logAnchor: Math.log(k.price),
        beta: k.beta,
        idio: k.idio,
        vol: k.vol,
        trendPre: k.stable ? 0 : k.slug === 'bitcoin' ? 0.3 : 0.32,
        trendPost: k.stable ? 0 : 0.08,
        stable: !!k.stable,
        volRatio: k.stable ? 0.35 : k.slug === 'bitcoin' ? 0.025 : 0.05,
      },
      supply,
      vesting,
      holders: k.type === 'token' && contracts.length > 0,
      anchorCap: k.price * k.supply,
    };
  }

  // ------------------------------------------------------------ generated roles
  type Role = { type: CurrencyType; lifecycle: Lifecycle; special?: 'etf' | 'lev' | 'deriv' | 'fiat' | 'collision' | 'notoken' };
  const roles: Role[] = [];
  const add = (n: number, r: Role) => {
    for (let i = 0; i < n; i++) roles.push(r);
  };
  add(6, { type: 'etf', lifecycle: 'traded', special: 'etf' });
  add(6, { type: 'leveraged-token', lifecycle: 'traded', special: 'lev' });
  add(5, { type: 'derivative', lifecycle: 'traded', special: 'deriv' });
  add(3, { type: 'fiat', lifecycle: 'unknown', special: 'fiat' });
  add(10, { type: 'no-token', lifecycle: 'funding', special: 'notoken' });
  add(8, { type: 'no-token', lifecycle: 'scheduled', special: 'notoken' });
  add(6, { type: 'no-token', lifecycle: 'unknown', special: 'notoken' });
  add(3, { type: 'token', lifecycle: 'traded', special: 'collision' });
  add(50, { type: 'token', lifecycle: 'scheduled' });
  add(30, { type: 'token', lifecycle: 'funding' });
  add(30, { type: 'token', lifecycle: 'crowdsale' });
  add(80, { type: 'token', lifecycle: 'inactive' });
  add(40, { type: 'coin', lifecycle: 'unknown' });
  while (roles.length < GENERATED_COUNT) roles.push({ type: rng.chance(0.65) ? 'token' : 'coin', lifecycle: 'traded' });
  // shuffle (Fisher-Yates) so ids mix roles
  for (let i = roles.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [roles[i], roles[j]] = [roles[j], roles[i]];
  }

  const COLLISIONS: [string, string, string][] = [
    ['Pepe Classic', 'pepe-classic', 'PEPE'],
    ['Unicorn Finance', 'unicorn-finance', 'UNI'],
    ['Link Protocol', 'link-protocol', 'LINK'],
  ];
  const LEVERAGED = ['BTC3L', 'BTC3S', 'ETH3L', 'ETH3S', 'SOL3L', 'DOGE3L'];
  const FIATS: [string, string][] = [['Euro', 'EUR'], ['Japanese Yen', 'JPY'], ['British Pound', 'GBP']];
  const chainSlugs = Object.keys(TOKEN_CHAIN_WEIGHTS);
  const chainWeights = chainSlugs.map((s) => TOKEN_CHAIN_WEIGHTS[s]);
  const generalCategories = categories.filter((c) => !['stablecoin', 'chain', 'currency'].includes(c.slug));
  const lastEarlyDay = dayOfIso('2020-12-31');
  const lastLateDay = dayOfIso('2025-12-31');
  let collision = 0;
  let lev = 0;
  let fiat = 0;
  let etf = 0;
  let deriv = 0;

  roles.forEach((role, i) => {
    const id = GENERATED_ID_BASE + i;
    let name: string;
    let symbol: string | null;
    if (role.special === 'collision') {
      const [n, , s] = COLLISIONS[collision++];
      name = n;
      symbol = s;
    } else if (role.special === 'lev') {
      symbol = LEVERAGED[lev++];
      const base = symbol.replace(/3[LS]$/, '');
      name = `${base} 3x ${symbol.endsWith('L') ? 'Long' : 'Short'}`;
    } else if (role.special === 'fiat') {
      [name, symbol] = FIATS[fiat++];
    } else {
      do {
        name = makeName(rng);
        if (role.special === 'etf') name = `${name.split(' ')[0]} ${['Bitcoin', 'Ether', 'Solana', 'Crypto Index', 'Bitcoin', 'Ether'][etf]} Trust ETF`;
        if (role.special === 'deriv') name = `${name.split(' ')[0]} Perpetual Index`;
      } while (usedSlugs.has(slugOf(name)));
      if (role.special === 'etf') etf++;
      if (role.special === 'deriv') deriv++;
      if (role.special === 'notoken') symbol = null;
      else {
        let s: string;
        let attempt = 0;
        do s = makeSymbol(rng, name, attempt++);
        while (usedSymbols.has(s));
        symbol = s;
      }
    }
    if (symbol && role.special !== 'collision') usedSymbols.add(symbol);
    let slug = role.special === 'collision' ? COLLISIONS[collision - 1][1] : slugOf(name);
    for (let n = 2; usedSlugs.has(slug); n++) slug = `${slugOf(name)}-${n}`;
    usedSlugs.add(slug);

    const traded = role.lifecycle === 'traded';
    const isToken = role.type === 'token';
    const contracts: Contract[] = [];
    if (isToken && role.special !== 'fiat') {
      const n = rng.weighted([1, 2, 3], [60, 28, 12]);
      while (contracts.length < n) {
        const chain = chainBySlug.get(rng.weighted(chainSlugs, chainWeights))!;
        if (!contracts.some((c) => c.chainId === chain.id)) contracts.push(contractOn(chain));
      }
    }
    const category = role.special === 'etf' || role.special === 'lev' || role.special === 'deriv'
      ? categoryBySlug.get('derivatives')!
      : role.special === 'fiat' ? categoryBySlug.get('currency')! : rng.chance(0.06) ? null : rng.pick(generalCategories);
    const tagIds: number[] = [];
    const nt = rng.int(0, 3);
    while (tagIds.length < nt) {
      const t = rng.pick(tags).id;
      if (!tagIds.includes(t)) tagIds.push(t);
    }

    let startDay: number | null = null;
    let price: PriceModel | null = null;
    let supply: SupplyModel | null = null;
    let vesting: VestingPlan | null = null;
    let anchorCap = 0;
    if (traded) {
      startDay = rng.chance(0.65) ? rng.int(0, lastEarlyDay) : rng.int(lastEarlyDay + 1, lastLateDay);
      const u = rng.next();
      anchorCap = role.special === 'collision' ? rng.range(1e5, 5e5)
        : role.special === 'etf' ? rng.logRange(5e8, 5e9)
        : role.special === 'lev' || role.special === 'deriv' ? rng.logRange(1e6, 5e7)
        : Math.exp(Math.log(3e4) + Math.pow(u, 1.6) * Math.log(1.5e9 / 3e4));
      const p = role.special === 'etf' ? rng.range(20, 80) : role.special === 'lev' ? rng.logRange(0.01, 50) : rng.logRange(1e-7, 2000);
      const s = anchorCap / p;
      price = {
        logAnchor: Math.log(p),
        beta: role.special === 'lev' ? rng.range(2.5, 3) * (name.endsWith('Short') ? -1 : 1) : rng.range(0.8, 1.5),
        idio: role.special === 'etf' ? 0.05 : rng.range(0.2, 0.5),
        vol: role.special === 'etf' ? 0.02 : rng.range(0.03, 0.09),
        trendPre: role.special === 'etf' ? 0.3 : rng.range(0.1, 0.4),
        trendPost: rng.range(-0.2, 0.05),
        stable: false,
        volRatio: rng.logRange(0.005, 0.3),
      };
      if (isToken && startDay > lastEarlyDay && rng.chance(0.6)) {
        vesting = makeVestingPlan(rng, id, slug, s * rng.range(1.5, 4), startDay, investorIds);
        supply = { kind: 'vesting', plan: vesting };
      } else if (rng.chance(0.55)) {
        supply = cappedEmission(s, s * rng.range(1.0001, 3), startDay, rng.range(300, 2500), rng.chance(0.5) ? 0 : rng.range(0, 0.3));
      } else {
        supply = { kind: 'emission', anchor: s, max: null, k: 0, tau: 1, inflation: rng.range(0, 0.08), held: rng.chance(0.5) ? 0 : rng.range(0, 0.2) };
      }
    }
    const homeChainId = contracts.length ? contracts[0].chainId : null;
    const hasDescription = rng.chance(0.9);
    const categoryName = category ? category.name : 'crypto';
    coins.push({
      index: coins.length,
      id,
      slug,
      symbol,
      name,
      type: role.type,
      lifecycle: role.lifecycle,
      categoryId: category ? category.id : null,
      tagIds,
      ecosystemIds: ecosystemsOf(contracts, undefined),
      description: hasDescription ? `${name}${symbol ? ` (${symbol})` : ''} is a ${categoryName} project.` : null,
      links: links(rng, slug),
      imageUrl: role.lifecycle === 'inactive' || role.lifecycle === 'unknown' ? null : image(slug),
      listingDate: startDay !== null ? iso(Date.UTC(2015, 0, 1 + startDay)) : null,
      startDay,
      contracts,
      homeChainId,
      price,
      supply,
      vesting,
      holders: traded && isToken && contracts.length > 0,
      anchorCap,
    });
  });

  return {
    seed,
    coins,
    byId: new Map(coins.map((c) => [c.id, c])),
    chains,
    chainById: new Map(chains.map((c) => [c.id, c])),
    categories,
    categoryById: new Map(categories.map((c) => [c.id, c])),
    tags,
    tagById: new Map(tags.map((t) => [t.id, t])),
    ecosystems,
    ecosystemById: new Map(ecosystems.map((e) => [e.id, e])),
    persons,
    investors,
    investorById: new Map(investors.map((x) => [x.id, x])),
  };
}
