/**
 * Record shapes of the market data API (the provider's interface specification), as
 * valibot schemas: the one place a field's type and nullability are written.
 * The client validates responses with them at the boundary; the emulator's
 * contract tests check its output against them; the types are inferred.
 *
 * Where the spec says "fields not shown" (PercentChange, GainersVsLosers,
 * VcPressureInvestor/Unlock, the rest of a vesting allocation) the shape here is
 * our choice, marked "ours".
 */
import * as v from 'valibot';

/**
 * A decimal number carried as a JSON string ("123.45", "-0.5", "1e-7" is not
 * allowed), of at most 40 digits before the point and 40 after: a double holds
 * both ends (1e40, 1e-40), where a 400-digit string becomes Infinity or 0.
 */
export const Decimal = v.pipe(v.string(), v.regex(/^-?\d{1,40}(\.\d{1,40})?$/, 'expected a decimal string'));
/** A JSON number that is finite: 1e400 parses as Infinity, and no cell can show it. */
const Num = v.pipe(v.number(), v.finite());
/** Epoch milliseconds. */
export const EpochMs = v.pipe(Num, v.integer());
/** ISO 8601 UTC text; parsed defensively (the live docs varied). */
export const IsoDate = v.pipe(
  v.string(),
  v.check((s) => !Number.isNaN(Date.parse(s)), 'expected an ISO 8601 date'),
);
const Int = v.pipe(Num, v.integer());
const N = v.nullable;

export const LIFECYCLES = ['scheduled', 'funding', 'crowdsale', 'traded', 'inactive', 'unknown'] as const;
export const CURRENCY_TYPES = ['coin', 'token', 'etf', 'leveraged-token', 'fiat', 'no-token', 'derivative'] as const;
export const FEAR_GREED_BANDS = [
  { label: 'Extreme Fear', max: 25 },
  { label: 'Fear', max: 45 },
  { label: 'Neutral', max: 55 },
  { label: 'Greed', max: 75 },
  { label: 'Extreme Greed', max: 100 },
] as const;
export const ALTCOIN_SEASON_BANDS = [
  { label: 'Bitcoin Season', max: 25 },
  { label: 'Neutral', max: 74 },
  { label: 'Altcoin Season', max: 100 },
] as const;
export const DUMP_PRESSURES = ['low', 'moderate', 'high', 'very-high'] as const;
export const HOLDER_BUCKETS = ['top1_5', 'top6_10', 'top11_25', 'top26_50', 'top51_100', 'outside100'] as const;
export const HOLDER_TIERS = ['whale', 'shark', 'dolphin', 'fish', 'octopus', 'crab', 'shrimp'] as const;

/** Classification of an index value by its bands (values are integers 0-100). */
export function classify(bands: readonly { label: string; max: number }[], value: number): string {
  for (const b of bands) if (Math.round(value) <= b.max) return b.label;
  return bands[bands.length - 1].label;
}

// ---------------------------------------------------------------- blockchains
export const GainersVsLosers = v.object({ gainers: Int, losers: Int }); // ours
export const BlockchainListItem = v.object({
  id: Int,
  slug: v.string(),
  name: v.string(),
  symbol: N(v.string()),
  nativeCurrencyId: N(Int),
  explorerUrl: N(v.string()),
  marketCap: N(Decimal),
  marketCapDominance: N(Num),
});
export const Blockchain = v.object({
  ...BlockchainListItem.entries,
  imageUrl: N(v.string()),
  volume24h: N(Decimal),
  gainersVsLosers: GainersVsLosers,
});
export const BlockchainMapItem = v.object({ id: Int, slug: v.string(), name: v.string() });
export const BlockchainTvlChange = v.object({ tvlChange: N(Num) });
export const PersonMapItem = v.object({ id: Int, name: v.string(), slug: v.string() });

// ---------------------------------------------------------------- charts
export const ChartAltcoinIndex = v.object({
  time: EpochMs,
  value: Num,
  altcoinsMarketCap: Decimal,
  classification: v.picklist(ALTCOIN_SEASON_BANDS.map((b) => b.label)),
});
export const ChartDominance = v.object({ time: EpochMs, dominance: Num });
export const ChartFearGreed = v.object({
  time: EpochMs,
  value: Num,
  classification: v.picklist(FEAR_GREED_BANDS.map((b) => b.label)),
});
/** `/v3/global/fear-greed`: a snapshot [inv, code], not a chart point. */
export const FearGreedSnapshot = v.object({
  currentValue: Num,
  classification: v.picklist(FEAR_GREED_BANDS.map((b) => b.label)),
});
/** `/v3/global/altcoin-index`: a snapshot [doc]; the fields after classification may be missing (null). */
export const AltcoinIndexSnapshot = v.object({
  currentValue: Num,
  classification: v.picklist(ALTCOIN_SEASON_BANDS.map((b) => b.label)),
  yearlyHighValue: N(Num),
  yearlyHighDate: N(IsoDate),
  yearlyLowValue: N(Num),
  yearlyLowDate: N(IsoDate),
  yesterdayValue: N(Num),
  lastWeekValue: N(Num),
  lastMonthValue: N(Num),
});
/** `/v3/global/dominance`: no parameters, a snapshot [inv, code]; others = everything but BTC and ETH. */
export const DominanceSnapshot = v.object({
  btcDominance: Num,
  btcDominanceChangePercent24h: N(Num),
  ethDominance: Num,
  ethDominanceChangePercent24h: N(Num),
  othersDominance: Num,
});
export const ChartTvl = v.object({ time: EpochMs, totalTvl: Decimal, tvl: Decimal });
/** volume is required in the spec; an older documented answer has none (an empty cell), see variants.ts. */
export const SparklinePoint = v.object({ time: EpochMs, price: Decimal, volume: N(Decimal) });

// ---------------------------------------------------------------- account and global
/** The spec's Credits record, as /v3/status carries it in the spec shape. */
export const Credits = v.object({
  dailyLimit: Num,
  dailyUsed: Num,
  dailyRemaining: Num,
  monthlyLimit: Num,
  monthlyUsed: Num,
  monthlyRemaining: Num,
});
/** `/v3/status` in the spec's shape: free, and NOT wrapped in the envelope (api-notes). */
export const StatusBody = v.object({
  plan: v.string(),
  rateLimitPerMinute: Num,
  credits: Credits,
  currentPeriodStart: IsoDate,
  currentPeriodEnd: IsoDate,
  endpoints: v.array(v.string()),
});
/** An older documented `/v3/status` [doc]: monthly figures only, `maxRPM`. */
export const LegacyStatusBody = v.object({
  plan: v.string(),
  creditsTotal: Num,
  creditsUsed: Num,
  creditsRemaining: Num,
  maxRPM: Num,
  currentPeriodStart: IsoDate,
  currentPeriodEnd: IsoDate,
});
/**
 * The account as the add-in reads it, from any documented `/v3/status` shape:
 * the daily figures are null when the service does not report them (nothing is
 * derived from the monthly ones), `endpoints` is null when not listed. The spec
 * shape passes this schema as it is.
 */
export const AccountCredits = v.object({
  dailyLimit: N(Num),
  dailyUsed: N(Num),
  dailyRemaining: N(Num),
  monthlyLimit: Num,
  monthlyUsed: Num,
  monthlyRemaining: Num,
});
export const AccountStatus = v.object({
  plan: v.string(),
  rateLimitPerMinute: Num,
  credits: AccountCredits,
  currentPeriodStart: IsoDate,
  currentPeriodEnd: IsoDate,
  endpoints: N(v.array(v.string())),
});
export const DerivativesSnapshot = v.object({
  totalOpenInterest: Decimal,
  totalVolume24h: Decimal,
  perpetualShare: Num,
  futuresShare: Num,
  activeDerivativesExchangesCount: Int,
});
export const GlobalMarket = v.object({
  totalMarketCap: Decimal,
  totalVolume24h: Decimal,
  btcMarketCap: Decimal,
  ethMarketCap: Decimal,
  activeCurrencies: Int,
  activeTickers: Int,
  activeExchanges: Int,
  marketCapChangePercent24h: Num,
});

// ---------------------------------------------------------------- currencies
export const PeriodicReturn = v.object({ date: IsoDate, closingPrice: Decimal, pricePercentChange: Num });
export const CurrencyCategory = v.object({ id: Int, slug: v.string(), name: v.string() });
export const CurrencyTag = v.object({ id: Int, slug: v.string(), name: v.string() });
/** `type` may grow: accept any string. */
export const CurrencyLink = v.object({ type: v.string(), url: v.string() });
export const CurrencyContract = v.object({
  blockchainId: Int,
  blockchainSlug: v.string(),
  blockchainName: v.string(),
  address: v.string(),
  decimals: N(Int),
  explorerUrl: N(v.string()),
});
/** `/v3/fiat/list` item [inv: field names only]: `price` as a decimal string like every price (guess), see endpoints.ts. */
export const FiatItem = v.object({ id: Int, name: v.string(), slug: v.string(), symbol: v.string(), price: N(Decimal) });
export const CurrencyMapItem = v.object({ id: Int, slug: v.string(), symbol: N(v.string()), name: v.string() });
export const CurrencySearchItem = v.object({
  id: Int,
  slug: v.string(),
  symbol: N(v.string()),
  name: v.string(),
  rank: N(Int),
  imageUrl: N(v.string()),
});
export const CurrencyListItem = v.object({
  id: Int,
  slug: v.string(),
  symbol: N(v.string()),
  name: v.string(),
  rank: N(Int),
  imageUrl: N(v.string()),
  price: Decimal,
  priceChangePercent24h: N(Num),
  marketCap: N(Decimal),
  volume24h: Decimal,
  circulatingSupply: N(Decimal),
});
export const GainerLoser = v.object({
  id: Int,
  rank: N(Int),
  slug: v.string(),
  symbol: N(v.string()),
  name: v.string(),
  imageUrl: N(v.string()),
  category: N(CurrencyCategory),
  price: Decimal,
  marketCap: N(Decimal),
  pricePercentChange: Num,
  volume24h: Decimal,
});
export const TrendingItem = v.object({
  id: Int,
  rank: Int,
  slug: v.string(),
  symbol: N(v.string()),
  name: v.string(),
  imageUrl: N(v.string()),
  category: N(CurrencyCategory),
  price: N(Decimal),
  priceChangePercent24h: N(Num),
  high24h: N(Decimal),
  low24h: N(Decimal),
  volume24h: N(Decimal),
  marketCap: N(Decimal),
  volMcapRatio: N(Num),
  listingDate: N(IsoDate),
});
export const HistoricalItem = v.object({
  id: Int,
  slug: v.string(),
  symbol: N(v.string()),
  name: v.string(),
  price: Decimal,
  marketCap: N(Decimal),
  volume24h: Decimal,
  volume24hBase: Decimal,
  circulatingSupply: N(Decimal),
  storedTime: EpochMs,
});
export const Candle = v.object({
  time: EpochMs,
  open: Decimal,
  high: Decimal,
  low: Decimal,
  close: Decimal,
  avg: Decimal,
  volume: Decimal,
  circulatingSupply: Decimal,
  priceChangePercent: N(Num),
  volumeChangePercent: N(Num),
  circulatingSupplyChangePercent: N(Num),
});
export const Performance = v.object({
  slug: v.string(),
  athPriceUsd: N(Decimal),
  athDate: N(IsoDate),
  atlPriceUsd: N(Decimal),
  atlDate: N(IsoDate),
  athMarketCapUsd: N(Decimal),
  fromAthPercent: N(Num),
  fromAtlPercent: N(Num),
  vcAvgRoi: N(Num),
  icoRoi: N(Num),
});
/** ours: the same periods as the market item's percentChange. */
export const PercentChange = v.object({
  h24: N(Num),
  d7: N(Num),
  d30: N(Num),
  m3: N(Num),
  ytd: N(Num),
});
export const Profile = v.object({
  id: Int,
  slug: v.string(),
  symbol: N(v.string()),
  name: v.string(),
  rank: N(Int),
  type: v.string(), // the spec lists seven values; accept new ones rather than fail a cell
  lifecycle: v.picklist(LIFECYCLES),
  category: N(CurrencyCategory),
  tags: v.array(CurrencyTag),
  imageUrl: N(v.string()),
  description: N(v.string()),
  listingDate: N(IsoDate),
  links: v.array(CurrencyLink),
  price: N(Decimal),
  pricePercentChange: PercentChange,
  volume24h: N(Decimal),
  marketCap: N(Decimal),
  volMcapRatio: N(Num),
  volatility: N(Num),
  high24hUsd: N(Decimal),
  low24hUsd: N(Decimal),
  fullyDilutedValuation: N(Decimal),
  circulatingPercent: N(Num),
  circulatingSupply: N(Decimal),
  totalSupply: N(Decimal),
  maxSupply: N(Decimal),
});
export const Tokenomics = v.object({
  totalSupply: N(Decimal),
  maxSupply: N(Decimal),
  circulatingSupply: N(Decimal),
  circulatingPercent: N(Num),
  fullyDilutedValuation: N(Decimal),
  totalUnlockedAmount: N(Decimal),
  totalUnlockedPercent: N(Num),
  totalLockedAmount: N(Decimal),
  totalLockedPercent: N(Num),
  // The documented shape has no untracked figures [doc: docs.cryptorank.io/api-reference/currencies/tokenomics-summary]:
  // optional, so an answer without them costs those two cells (#N/A naming the field), not an empty value.
  untrackedAmount: v.optional(N(Decimal)),
  untrackedPercent: v.optional(N(Num)),
  nextUnlockDate: N(IsoDate),
  nextUnlockTokenAmount: N(Decimal),
  nextUnlockValue: N(Decimal),
  nextUnlockPercentOfMcap: N(Num),
  nextUnlockPercentOfSupply: N(Num),
  vestingSourceUrls: v.array(v.string()),
});
export const UpcomingUnlock = v.object({
  id: Int,
  name: v.string(),
  symbol: N(v.string()),
  imageUrl: N(v.string()),
  time: EpochMs,
  unlockTokens: Decimal,
  unlockValue: Decimal,
  percentOfMcap: Num,
  percentOfSupply: Num,
  price: Decimal,
  marketCap: Decimal,
  circulatingSupply: Decimal,
});
/** ours */
export const VcPressureInvestor = v.object({
  id: Int,
  name: v.string(),
  slug: v.string(),
  tier: N(Int),
  type: v.string(),
});
/** ours */
export const VcPressureUnlock = v.object({
  date: IsoDate,
  tokenAmount: Decimal,
  usdAmount: N(Decimal),
  percentOfSupply: Num,
});
export const VcPressure = v.object({
  dumpPressure: v.picklist(DUMP_PRESSURES),
  dominance: Num,
  profit: Num,
  nextUnlockDate: N(IsoDate),
  unlock: N(VcPressureUnlock),
  unlocked30d: Num,
  circulatingSupply: Decimal,
  investors: v.array(VcPressureInvestor),
  priceChangePercent24h: N(Num),
});
/**
 * A vesting allocation. The spec fixes allocationId, allocationName, groupDominance,
 * isTracked and lockedPercent and leaves the rest "not shown"; the rest takes the
 * documented names [doc: docs.cryptorank.io/api-reference/vesting-&-token-unlocks/vesting-allocations].
 * The documented shape has no allocationId, isTracked or endDate (variants.ts: isTracked is
 * true there, as untracked allocations are excluded); optional fields are the ones a
 * documented shape lacks: absent, they cost their cell (#N/A naming the field).
 */
export const VestingAllocation = v.object({
  allocationId: v.optional(Int),
  allocationName: v.string(),
  groupDominance: N(Num),
  isTracked: v.boolean(),
  lockedPercent: N(Num),
  unlockedPercent: N(Num),
  totalAmount: Decimal,
  percentOfSupply: N(Num),
  unlockedAmount: N(Decimal),
  lockedAmount: N(Decimal),
  nextUnlockDate: N(IsoDate),
  nextUnlockTokenAmount: N(Decimal),
  nextUnlockUsdAmount: N(Decimal),
  /** `linear`, `nonlinear`, `dynamic` [doc]; a new value is shown as it comes, not refused. */
  vestingType: N(v.string()),
  /** ours: the allocation's last scheduled unlock; no documented shape has it. */
  endDate: v.optional(N(IsoDate)),
});
export const HolderItem = v.object({
  rank: Int,
  address: v.string(),
  label: N(v.string()),
  isContract: v.boolean(),
  amount: Decimal,
  percentOfSupply: Num,
  value: N(Decimal),
});
export const HolderBucket = v.object({
  bucket: v.picklist(HOLDER_BUCKETS),
  amount: Decimal,
  percentOfSupply: Num,
  value: N(Decimal),
});
export const HolderTier = v.object({
  tier: v.picklist(HOLDER_TIERS),
  holdersCount: Int,
  holdersPercent: Num,
});
export const HoldersMeta = v.object({
  page: Int,
  pageSize: Int,
  hasNextPage: v.boolean(),
  blockchainId: N(Int),
  snapshotDate: N(IsoDate),
});
export const HoldersSummary = v.object({
  blockchainId: N(Int),
  snapshotDate: N(IsoDate),
  holdersCount: N(Int),
  totalSupply: N(Decimal),
  top100Share: N(Num),
  walletsShare: N(Num),
  contractsShare: N(Num),
  concentration: v.array(HolderBucket),
  tierDistribution: v.array(HolderTier),
});
const Ref = v.object({ id: Int, slug: v.string(), name: v.string() });
export const MarketItem = v.object({
  id: Int,
  slug: v.string(),
  symbol: N(v.string()),
  name: v.string(),
  rank: N(Int),
  categoryId: N(Int),
  images: v.object({ icon: v.string(), x60: v.string(), x150: v.string(), native: v.string() }),
  price: Decimal,
  marketCap: N(Decimal),
  volume24h: Decimal,
  volume24hBase: Decimal,
  fullyDilutedValuation: N(Decimal),
  high24h: N(Decimal),
  low24h: N(Decimal),
  percentChange: v.object({ h24: Num, d7: Num, d30: Num, m3: Num, ytd: Num }),
  circulatingSupply: N(Decimal),
  totalSupply: N(Decimal),
  maxSupply: N(Decimal),
  isTraded: v.boolean(),
  tags: v.array(Ref),
  ecosystems: v.array(Ref),
  lastUpdated: N(IsoDate),
  sparkline7d: v.optional(v.array(Decimal)),
});

// ---------------------------------------------------------------- envelope and errors
export const PageMeta = v.object({ page: Int, pageSize: Int, hasNextPage: v.boolean() });
export const EnvelopeStatus = v.object({ timestamp: EpochMs, usedCredits: Num });
export const ErrorBody = v.object({
  // Tolerant: the status inside is the HTTP status again, and a body without it or a message is still read (its code matters).
  error: v.object({ code: v.string(), message: v.optional(v.string()), status: v.optional(Int) }),
});

export type Decimal = v.InferOutput<typeof Decimal>;
export type BlockchainListItem = v.InferOutput<typeof BlockchainListItem>;
export type Blockchain = v.InferOutput<typeof Blockchain>;
export type BlockchainMapItem = v.InferOutput<typeof BlockchainMapItem>;
export type BlockchainTvlChange = v.InferOutput<typeof BlockchainTvlChange>;
export type PersonMapItem = v.InferOutput<typeof PersonMapItem>;
export type ChartAltcoinIndex = v.InferOutput<typeof ChartAltcoinIndex>;
export type ChartDominance = v.InferOutput<typeof ChartDominance>;
export type ChartFearGreed = v.InferOutput<typeof ChartFearGreed>;
export type ChartTvl = v.InferOutput<typeof ChartTvl>;
export type FearGreedSnapshot = v.InferOutput<typeof FearGreedSnapshot>;
export type AltcoinIndexSnapshot = v.InferOutput<typeof AltcoinIndexSnapshot>;
export type DominanceSnapshot = v.InferOutput<typeof DominanceSnapshot>;
export type SparklinePoint = v.InferOutput<typeof SparklinePoint>;
export type Credits = v.InferOutput<typeof Credits>;
export type AccountStatus = v.InferOutput<typeof AccountStatus>;
export type AccountCredits = v.InferOutput<typeof AccountCredits>;
export type StatusBody = v.InferOutput<typeof StatusBody>;
export type LegacyStatusBody = v.InferOutput<typeof LegacyStatusBody>;
export type DerivativesSnapshot = v.InferOutput<typeof DerivativesSnapshot>;
export type GlobalMarket = v.InferOutput<typeof GlobalMarket>;
export type PeriodicReturn = v.InferOutput<typeof PeriodicReturn>;
export type CurrencyCategory = v.InferOutput<typeof CurrencyCategory>;
export type CurrencyTag = v.InferOutput<typeof CurrencyTag>;
export type CurrencyContract = v.InferOutput<typeof CurrencyContract>;
export type CurrencyMapItem = v.InferOutput<typeof CurrencyMapItem>;
export type FiatItem = v.InferOutput<typeof FiatItem>;
export type CurrencySearchItem = v.InferOutput<typeof CurrencySearchItem>;
export type CurrencyListItem = v.InferOutput<typeof CurrencyListItem>;
export type GainerLoser = v.InferOutput<typeof GainerLoser>;
export type TrendingItem = v.InferOutput<typeof TrendingItem>;
export type HistoricalItem = v.InferOutput<typeof HistoricalItem>;
export type Candle = v.InferOutput<typeof Candle>;
export type Performance = v.InferOutput<typeof Performance>;
export type Profile = v.InferOutput<typeof Profile>;
export type Tokenomics = v.InferOutput<typeof Tokenomics>;
export type UpcomingUnlock = v.InferOutput<typeof UpcomingUnlock>;
export type VcPressure = v.InferOutput<typeof VcPressure>;
export type VestingAllocation = v.InferOutput<typeof VestingAllocation>;
export type HolderItem = v.InferOutput<typeof HolderItem>;
export type HolderBucket = v.InferOutput<typeof HolderBucket>;
export type HolderTier = v.InferOutput<typeof HolderTier>;
export type HoldersMeta = v.InferOutput<typeof HoldersMeta>;
export type HoldersSummary = v.InferOutput<typeof HoldersSummary>;
export type MarketItem = v.InferOutput<typeof MarketItem>;
export type PageMeta = v.InferOutput<typeof PageMeta>;
export type ErrorBody = v.InferOutput<typeof ErrorBody>;
