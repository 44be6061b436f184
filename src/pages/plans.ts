/**
 * What each CryptoRank plan gives in this add-in, in words for the pages and the
 * pane. The plans themselves (which endpoint needs which) are the endpoint
 * table's (src/api/endpoints.ts); test/pages.test.ts checks these lists against it.
 * The free plan's numbers are the table's PLAN_LIMITS.
 */
import { PLAN_LIMITS } from '../api/endpoints';

const SANDBOX = PLAN_LIMITS.Sandbox;

export const PLAN_FORMULAS = {
  Sandbox: {
    formulas: ['PRICE', 'COIN', 'DATA', 'QUOTE', 'MARKETS', 'SEARCH', 'PROFILE', 'TRENDING', 'GLOBAL', 'FEARGREED', 'ALTSEASON', 'BLOCKCHAINS', 'BLOCKCHAIN', 'PERSONS', 'CREDITS', 'LIVEPRICE', 'ASOF'],
    summary: `prices, quotes, the markets list, coin search, coin profiles, trending coins, global figures, the current Fear & Greed and Altcoin Season indices and blockchains (${SANDBOX.rateLimitPerMinute} requests a minute, ${SANDBOX.dailyCredits} credits a day).`,
  },
  paid: [
    { plan: 'Basic', formulas: ['CONTRACTS', 'SPARKLINE', 'GAINERS', 'LOSERS', 'DOMINANCE', 'TVL', 'TVLCHANGE'], adds: 'adds contracts, sparklines, gainers and losers, dominance, TVL and index history' },
    { plan: 'Advanced', formulas: ['OHLCV', 'HISTORICAL', 'RETURNS', 'STATS', 'CORREL', 'PERFORMANCE', 'TOKENOMICS', 'DERIVATIVES', 'HOLDERS'], adds: 'adds OHLCV history, historical values, returns, risk statistics and correlations, performance, tokenomics, derivatives and holders' },
    { plan: 'Pro', formulas: ['VESTING', 'VCPRESSURE', 'UNLOCKS'], adds: 'adds vesting, VC pressure and token unlocks' },
  ],
} as const;

/** The first run's few lines (task pane): what each plan gives, shortest form. */
export const PLAN_LINES = [
  { plan: 'Sandbox', note: 'free', text: 'prices, quotes, the markets list, profiles and global figures' },
  { plan: 'Basic', note: 'adds', text: 'contracts, gainers and losers, TVL and index history' },
  { plan: 'Advanced', note: 'adds', text: 'OHLCV history, returns, tokenomics and holders' },
  { plan: 'Pro', note: 'adds', text: 'vesting, token unlocks and VC pressure' },
] as const;
