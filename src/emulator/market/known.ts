/**
 * Fixed reference data of the synthetic market: the well-known coins (real slugs,
 * symbols, names, price levels around mid-2025), blockchains, categories and tags.
 * Everything else in the universe is generated from the seed.
 */
import type { CURRENCY_TYPES } from '../../api/records';

export type CurrencyType = (typeof CURRENCY_TYPES)[number];

export interface KnownCoin {
  id: number;
  slug: string;
  symbol: string;
  name: string;
  type: CurrencyType;
  /** USD price on the anchor day (2025-06-01). */
  price: number;
  /** Circulating supply on the anchor day (ignored for vesting coins: their schedule decides). */
  supply: number;
  /** Max supply; null when uncapped. */
  max: number | null;
  listed: string;
  category: string;
  tags: string[];
  /** Slug of the chain this coin is the native coin of. */
  native?: string;
  /** Slugs of chains the token has contracts on (first = primary). */
  contracts?: string[];
  vesting?: boolean;
  stable?: boolean;
  /** Sensitivity to the common market factor. */
  beta: number;
  /** Amplitude of the coin's own slow noise (log price). */
  idio: number;
  /** Daily white-noise volatility of the log price. */
  vol: number;
}

export const KNOWN_COINS: readonly KnownCoin[] = [
  { id: 1, slug: 'bitcoin', symbol: 'BTC', name: 'Bitcoin', type: 'coin', price: 105_000, supply: 19_870_000, max: 21_000_000, listed: '2013-04-28', category: 'chain', tags: ['pow', 'layer-1', 'payments'], native: 'bitcoin', beta: 1, idio: 0, vol: 0.022 },
  { id: 2, slug: 'ethereum', symbol: 'ETH', name: 'Ethereum', type: 'coin', price: 2_800, supply: 120_700_000, max: null, listed: '2015-08-07', category: 'chain', tags: ['pos', 'smart-contracts', 'layer-1'], native: 'ethereum', beta: 1.1, idio: 0.08, vol: 0.028 },
  { id: 3, slug: 'tether', symbol: 'USDT', name: 'Tether', type: 'token', price: 1, supply: 153_000_000_000, max: null, listed: '2015-02-25', category: 'stablecoin', tags: ['stablecoins', 'payments'], contracts: ['ethereum', 'tron', 'solana', 'bnb-chain', 'arbitrum', 'polygon', 'avalanche', 'ton'], stable: true, beta: 0, idio: 0, vol: 0 },
  { id: 4, slug: 'ripple', symbol: 'XRP', name: 'XRP', type: 'coin', price: 2.2, supply: 58_800_000_000, max: 100_000_000_000, listed: '2013-08-04', category: 'payments', tags: ['payments', 'layer-1'], native: 'xrp-ledger', beta: 1.1, idio: 0.2, vol: 0.03 },
  { id: 5, slug: 'binancecoin', symbol: 'BNB', name: 'BNB', type: 'coin', price: 650, supply: 140_900_000, max: 200_000_000, listed: '2017-07-25', category: 'exchange', tags: ['layer-1', 'evm-compatible', 'smart-contracts'], native: 'bnb-chain', beta: 1, idio: 0.15, vol: 0.024 },
  { id: 6, slug: 'solana', symbol: 'SOL', name: 'Solana', type: 'coin', price: 155, supply: 520_000_000, max: null, listed: '2020-04-10', category: 'chain', tags: ['pos', 'smart-contracts', 'layer-1'], native: 'solana', beta: 1.3, idio: 0.2, vol: 0.04 },
  { id: 7, slug: 'usd-coin', symbol: 'USDC', name: 'USDC', type: 'token', price: 1, supply: 61_000_000_000, max: null, listed: '2018-10-08', category: 'stablecoin', tags: ['stablecoins', 'payments'], contracts: ['ethereum', 'solana', 'base', 'arbitrum', 'polygon', 'avalanche', 'optimism'], stable: true, beta: 0, idio: 0, vol: 0 },
  { id: 8, slug: 'dogecoin', symbol: 'DOGE', name: 'Dogecoin', type: 'coin', price: 0.19, supply: 149_000_000_000, max: null, listed: '2013-12-15', category: 'meme', tags: ['memes', 'pow', 'payments'], native: 'dogecoin', beta: 1.4, idio: 0.25, vol: 0.045 },
  { id: 9, slug: 'tron', symbol: 'TRX', name: 'TRON', type: 'coin', price: 0.27, supply: 94_900_000_000, max: null, listed: '2017-09-13', category: 'chain', tags: ['layer-1', 'smart-contracts'], native: 'tron', beta: 0.9, idio: 0.2, vol: 0.028 },
  { id: 10, slug: 'cardano', symbol: 'ADA', name: 'Cardano', type: 'coin', price: 0.68, supply: 35_900_000_000, max: 45_000_000_000, listed: '2017-10-01', category: 'chain', tags: ['pos', 'layer-1', 'smart-contracts'], native: 'cardano', beta: 1.25, idio: 0.2, vol: 0.038 },
  { id: 11, slug: 'chainlink', symbol: 'LINK', name: 'Chainlink', type: 'token', price: 14, supply: 657_000_000, max: 1_000_000_000, listed: '2017-09-19', category: 'oracle', tags: ['oracles', 'data', 'web3'], contracts: ['ethereum', 'bnb-chain', 'arbitrum', 'polygon'], beta: 1.25, idio: 0.2, vol: 0.04 },
  { id: 12, slug: 'avalanche', symbol: 'AVAX', name: 'Avalanche', type: 'coin', price: 21, supply: 417_000_000, max: 720_000_000, listed: '2020-09-22', category: 'chain', tags: ['pos', 'layer-1', 'evm-compatible'], native: 'avalanche', vesting: true, beta: 1.35, idio: 0.2, vol: 0.045 },
  { id: 13, slug: 'stellar', symbol: 'XLM', name: 'Stellar', type: 'coin', price: 0.27, supply: 31_000_000_000, max: 50_001_806_812, listed: '2014-08-05', category: 'payments', tags: ['payments', 'layer-1'], native: 'stellar', beta: 1.1, idio: 0.2, vol: 0.035 },
  { id: 14, slug: 'sui', symbol: 'SUI', name: 'Sui', type: 'coin', price: 3.2, supply: 3_300_000_000, max: 10_000_000_000, listed: '2023-05-03', category: 'chain', tags: ['pos', 'layer-1', 'smart-contracts'], native: 'sui', vesting: true, beta: 1.4, idio: 0.2, vol: 0.05 },
  { id: 15, slug: 'toncoin', symbol: 'TON', name: 'Toncoin', type: 'coin', price: 3.1, supply: 2_500_000_000, max: null, listed: '2021-08-14', category: 'chain', tags: ['pos', 'layer-1', 'payments'], native: 'ton', beta: 1, idio: 0.2, vol: 0.035 },
  { id: 16, slug: 'bitcoin-cash', symbol: 'BCH', name: 'Bitcoin Cash', type: 'coin', price: 400, supply: 19_880_000, max: 21_000_000, listed: '2017-08-01', category: 'currency', tags: ['pow', 'payments'], beta: 1.15, idio: 0.2, vol: 0.035 },
  { id: 17, slug: 'shiba-inu', symbol: 'SHIB', name: 'Shiba Inu', type: 'token', price: 0.0000135, supply: 589_000_000_000_000, max: null, listed: '2020-08-01', category: 'meme', tags: ['memes'], contracts: ['ethereum'], beta: 1.45, idio: 0.25, vol: 0.05 },
  { id: 18, slug: 'litecoin', symbol: 'LTC', name: 'Litecoin', type: 'coin', price: 88, supply: 75_900_000, max: 84_000_000, listed: '2013-04-28', category: 'currency', tags: ['pow', 'payments'], native: 'litecoin', beta: 1.05, idio: 0.2, vol: 0.033 },
  { id: 19, slug: 'polkadot', symbol: 'DOT', name: 'Polkadot', type: 'coin', price: 4.1, supply: 1_520_000_000, max: null, listed: '2020-08-19', category: 'chain', tags: ['pos', 'interoperability', 'layer-1'], native: 'polkadot', beta: 1.3, idio: 0.2, vol: 0.042 },
  { id: 20, slug: 'uniswap', symbol: 'UNI', name: 'Uniswap', type: 'token', price: 6.5, supply: 600_000_000, max: 1_000_000_000, listed: '2020-09-17', category: 'dex', tags: ['dex', 'amm', 'governance'], contracts: ['ethereum', 'arbitrum', 'polygon', 'base'], beta: 1.35, idio: 0.2, vol: 0.045 },
  { id: 21, slug: 'pepe', symbol: 'PEPE', name: 'Pepe', type: 'token', price: 0.0000105, supply: 420_690_000_000_000, max: 420_690_000_000_000, listed: '2023-04-17', category: 'meme', tags: ['memes'], contracts: ['ethereum'], beta: 1.6, idio: 0.3, vol: 0.06 },
  { id: 22, slug: 'near', symbol: 'NEAR', name: 'NEAR Protocol', type: 'coin', price: 2.5, supply: 1_220_000_000, max: null, listed: '2020-10-14', category: 'chain', tags: ['pos', 'layer-1', 'ai-agents'], native: 'near', beta: 1.35, idio: 0.2, vol: 0.045 },
  { id: 23, slug: 'aptos', symbol: 'APT', name: 'Aptos', type: 'coin', price: 5, supply: 640_000_000, max: 2_100_000_000, listed: '2022-10-19', category: 'chain', tags: ['pos', 'layer-1', 'smart-contracts'], native: 'aptos', vesting: true, beta: 1.35, idio: 0.2, vol: 0.045 },
  { id: 24, slug: 'arbitrum', symbol: 'ARB', name: 'Arbitrum', type: 'token', price: 0.35, supply: 4_900_000_000, max: 10_000_000_000, listed: '2023-03-23', category: 'layer-2', tags: ['layer-2', 'optimistic-rollups', 'governance'], native: 'arbitrum', contracts: ['arbitrum', 'ethereum'], vesting: true, beta: 1.35, idio: 0.2, vol: 0.045 },
  { id: 25, slug: 'optimism', symbol: 'OP', name: 'Optimism', type: 'token', price: 0.65, supply: 1_700_000_000, max: 4_294_967_296, listed: '2022-05-31', category: 'layer-2', tags: ['layer-2', 'optimistic-rollups', 'governance'], native: 'optimism', contracts: ['optimism'], vesting: true, beta: 1.4, idio: 0.2, vol: 0.048 },
  { id: 26, slug: 'polygon-ecosystem-token', symbol: 'POL', name: 'POL (ex-MATIC)', type: 'token', price: 0.22, supply: 10_500_000_000, max: null, listed: '2019-04-26', category: 'layer-2', tags: ['layer-2', 'evm-compatible', 'zk-rollups'], native: 'polygon', contracts: ['ethereum', 'polygon'], beta: 1.3, idio: 0.2, vol: 0.045 },
];

export interface KnownChain {
  slug: string;
  name: string;
  symbol: string | null;
  /** Slug of the native coin (a KNOWN_COINS slug) or null. */
  native: string | null;
  explorer: string | null;
  kind: 'evm' | 'solana' | 'tron' | 'ton' | 'other';
  launched: string;
  /** TVL on the anchor day, USD. */
  tvl: number;
  /** Share of its coins' 24h volume traded on its DEXes. */
  dexShare: number;
}

export const KNOWN_CHAINS: readonly KnownChain[] = [
  { slug: 'bitcoin', name: 'Bitcoin', symbol: 'BTC', native: 'bitcoin', explorer: 'https://mempool.space/address/', kind: 'other', launched: '2015-01-01', tvl: 5.5e9, dexShare: 0.002 },
  { slug: 'ethereum', name: 'Ethereum', symbol: 'ETH', native: 'ethereum', explorer: 'https://etherscan.io/token/', kind: 'evm', launched: '2015-08-07', tvl: 62e9, dexShare: 0.12 },
  { slug: 'bnb-chain', name: 'BNB Chain', symbol: 'BNB', native: 'binancecoin', explorer: 'https://bscscan.com/token/', kind: 'evm', launched: '2020-09-01', tvl: 6.1e9, dexShare: 0.15 },
  { slug: 'solana', name: 'Solana', symbol: 'SOL', native: 'solana', explorer: 'https://solscan.io/token/', kind: 'solana', launched: '2020-04-10', tvl: 9.2e9, dexShare: 0.2 },
  { slug: 'tron', name: 'TRON', symbol: 'TRX', native: 'tron', explorer: 'https://tronscan.org/#/token20/', kind: 'tron', launched: '2018-06-25', tvl: 5e9, dexShare: 0.04 },
  { slug: 'arbitrum', name: 'Arbitrum', symbol: 'ARB', native: 'arbitrum', explorer: 'https://arbiscan.io/token/', kind: 'evm', launched: '2021-08-31', tvl: 2.6e9, dexShare: 0.1 },
  { slug: 'base', name: 'Base', symbol: null, native: null, explorer: 'https://basescan.org/token/', kind: 'evm', launched: '2023-08-09', tvl: 3.4e9, dexShare: 0.18 },
  { slug: 'polygon', name: 'Polygon', symbol: 'POL', native: 'polygon-ecosystem-token', explorer: 'https://polygonscan.com/token/', kind: 'evm', launched: '2020-05-30', tvl: 1.1e9, dexShare: 0.06 },
  { slug: 'avalanche', name: 'Avalanche C-Chain', symbol: 'AVAX', native: 'avalanche', explorer: 'https://snowtrace.io/token/', kind: 'evm', launched: '2020-09-23', tvl: 1.6e9, dexShare: 0.06 },
  { slug: 'optimism', name: 'OP Mainnet', symbol: 'OP', native: 'optimism', explorer: 'https://optimistic.etherscan.io/token/', kind: 'evm', launched: '2021-12-16', tvl: 0.6e9, dexShare: 0.05 },
  { slug: 'cardano', name: 'Cardano', symbol: 'ADA', native: 'cardano', explorer: 'https://cardanoscan.io/token/', kind: 'other', launched: '2017-09-29', tvl: 0.35e9, dexShare: 0.02 },
  { slug: 'polkadot', name: 'Polkadot', symbol: 'DOT', native: 'polkadot', explorer: 'https://polkadot.subscan.io/account/', kind: 'other', launched: '2020-05-26', tvl: 0.1e9, dexShare: 0.01 },
  { slug: 'ton', name: 'TON', symbol: 'TON', native: 'toncoin', explorer: 'https://tonviewer.com/', kind: 'ton', launched: '2021-08-14', tvl: 0.2e9, dexShare: 0.05 },
  { slug: 'sui', name: 'Sui', symbol: 'SUI', native: 'sui', explorer: 'https://suiscan.xyz/mainnet/coin/', kind: 'other', launched: '2023-05-03', tvl: 1.7e9, dexShare: 0.12 },
  { slug: 'aptos', name: 'Aptos', symbol: 'APT', native: 'aptos', explorer: 'https://explorer.aptoslabs.com/coin/', kind: 'other', launched: '2022-10-17', tvl: 0.9e9, dexShare: 0.05 },
  { slug: 'near', name: 'NEAR', symbol: 'NEAR', native: 'near', explorer: 'https://nearblocks.io/token/', kind: 'other', launched: '2020-10-13', tvl: 0.15e9, dexShare: 0.03 },
  { slug: 'xrp-ledger', name: 'XRP Ledger', symbol: 'XRP', native: 'ripple', explorer: 'https://livenet.xrpl.org/token/', kind: 'other', launched: '2015-01-01', tvl: 0.08e9, dexShare: 0.01 },
  { slug: 'stellar', name: 'Stellar', symbol: 'XLM', native: 'stellar', explorer: 'https://stellar.expert/explorer/public/asset/', kind: 'other', launched: '2015-01-01', tvl: 0.06e9, dexShare: 0.01 },
  { slug: 'litecoin', name: 'Litecoin', symbol: 'LTC', native: 'litecoin', explorer: null, kind: 'other', launched: '2015-01-01', tvl: 0.01e9, dexShare: 0.001 },
  { slug: 'dogecoin', name: 'Dogecoin', symbol: 'DOGE', native: 'dogecoin', explorer: null, kind: 'other', launched: '2015-01-01', tvl: 0.005e9, dexShare: 0.001 },
];

/**
 * People the demo's persons map holds beside the generated ones: the documented examples name them
 * (=CRYPTO.PERSONS("vitalik")), and an example that finds no one would show only its error.
 */
export const KNOWN_PERSONS: readonly { id: number; name: string; slug: string }[] = [
  { id: 1001, name: 'Vitalik Buterin', slug: 'vitalik-buterin' },
  { id: 1002, name: 'Changpeng Zhao', slug: 'changpeng-zhao' },
  { id: 1003, name: 'Anatoly Yakovenko', slug: 'anatoly-yakovenko' },
  { id: 1004, name: 'Charles Hoskinson', slug: 'charles-hoskinson' },
];

/** Chains a generated token may deploy on, with weights. */
export const TOKEN_CHAIN_WEIGHTS: Readonly<Record<string, number>> = {
  ethereum: 40, 'bnb-chain': 15, solana: 15, base: 8, arbitrum: 7, polygon: 5, avalanche: 3, optimism: 3, tron: 2, ton: 2,
};

export const CATEGORIES: readonly [number, string, string][] = [
  [1, 'currency', 'Currency'], [4, 'blockchain-service', 'Blockchain Service'], [6, 'chain', 'Chain'],
  [8, 'stablecoin', 'Stablecoin'], [11, 'finance-banking', 'Finance / Banking'], [13, 'exchange', 'Exchange'],
  [15, 'defi', 'DeFi'], [17, 'meme', 'Meme'], [21, 'gamefi', 'GameFi'], [23, 'nft', 'NFT'],
  [25, 'metaverse', 'Metaverse'], [27, 'ai', 'Artificial Intelligence'], [29, 'infrastructure', 'Infrastructure'],
  [31, 'layer-2', 'Layer 2'], [33, 'oracle', 'Oracle'], [35, 'privacy', 'Privacy'], [37, 'storage', 'Storage'],
  [39, 'social', 'Social'], [41, 'rwa', 'Real World Assets'], [43, 'payments', 'Payments'], [45, 'lending', 'Lending'],
  [47, 'dex', 'DEX'], [49, 'derivatives', 'Derivatives'], [51, 'liquid-staking', 'Liquid Staking'], [53, 'depin', 'DePIN'],
];

export const TAG_SLUGS: readonly string[] = [
  'pos', 'pow', 'evm-compatible', 'smart-contracts', 'dao', 'governance', 'yield-farming', 'zk-rollups',
  'optimistic-rollups', 'interoperability', 'oracles', 'memes', 'ai-agents', 'launchpad', 'staking',
  'nft-marketplace', 'play-to-earn', 'web3', 'privacy-coins', 'stablecoins', 'payments', 'cross-chain', 'dex',
  'amm', 'lending', 'derivatives', 'real-world-assets', 'depin', 'storage', 'data', 'gaming', 'metaverse',
  'social-fi', 'launchpool', 'binance-launchpool', 'coinbase-ventures-portfolio', 'a16z-portfolio', 'layer-1',
  'layer-2', 'modular',
];

/** Display name of a slug ("zk-rollups" -> "Zk Rollups"), with a few fixed spellings. */
export function titleOf(slug: string): string {
  const fixedNames: Record<string, string> = {
    pos: 'PoS', pow: 'PoW', 'evm-compatible': 'EVM Compatible', dao: 'DAO', 'zk-rollups': 'ZK Rollups',
    'ai-agents': 'AI Agents', 'nft-marketplace': 'NFT Marketplace', dex: 'DEX', amm: 'AMM', depin: 'DePIN',
    'social-fi': 'SocialFi', 'a16z-portfolio': 'a16z Portfolio', 'layer-1': 'Layer 1', 'layer-2': 'Layer 2',
    web3: 'Web3',
  };
  return fixedNames[slug] ?? slug.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join(' ');
}
