/**
 * Generated names, slugs, symbols and addresses for the synthetic part of the universe.
 */
import type { Rng } from './prng';

const SYLLABLES = [
  'ka', 'zor', 'vex', 'lu', 'mi', 'tra', 'quon', 'fi', 'ra', 'del', 'nex', 'o', 'ly', 'sta', 'bit', 'flux', 'no', 'ar',
  'cy', 'zen', 'po', 'lar', 've', 'ri', 'an', 'tho', 'mo', 'sa', 'ki', 'gal', 'um', 'ter', 'ion', 'vo', 'len', 'xi',
  'dra', 'be', 'mon', 'sol', 'ty', 'qua', 'ne', 'ro', 'hex', 'pha', 'dyn', 'or', 'e', 'syn',
];
const SUFFIXES = ['', '', '', '', ' Protocol', ' Network', ' Finance', ' AI', ' Chain', ' Swap', ' DAO', ' Labs', ' Token', ' Coin', ' Exchange', ' Games'];

export function makeName(rng: Rng): string {
  const n = rng.int(2, 3);
  let s = '';
  for (let i = 0; i < n; i++) s += rng.pick(SYLLABLES);
  return s[0].toUpperCase() + s.slice(1) + rng.pick(SUFFIXES);
}

export function slugOf(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
}

/** A 3-5 letter symbol from the name's letters (plus random letters). */
export function makeSymbol(rng: Rng, name: string, attempt = 0): string {
  const letters = name.toUpperCase().replace(/[^A-Z]/g, '');
  const len = rng.int(3, 5);
  let s = letters.slice(0, Math.min(len, letters.length, attempt > 2 ? 2 : len));
  while (s.length < len) s += String.fromCharCode(65 + rng.int(0, 25));
  return s;
}

const FIRST = ['Alex', 'Maria', 'Jun', 'Priya', 'Lucas', 'Elena', 'Omar', 'Sofia', 'Ivan', 'Chen', 'Nora', 'Diego', 'Hana', 'Kofi', 'Lena', 'Mateo', 'Yuki', 'Amir', 'Clara', 'Tomas'];
const LAST = ['Morgan', 'Petrov', 'Tanaka', 'Okafor', 'Silva', 'Novak', 'Kim', 'Haddad', 'Larsen', 'Rossi', 'Schmidt', 'Nakamura', 'Mensah', 'Dubois', 'Kowalski', 'Santos', 'Weber', 'Ivanova', 'Patel', 'Moreau'];

export function personName(i: number): string {
  return `${FIRST[i % FIRST.length]} ${LAST[(i * 7 + Math.floor(i / FIRST.length)) % LAST.length]}`;
}

const FUND_WORDS = ['Capital', 'Ventures', 'Partners', 'Labs', 'Digital', 'Fund', 'Research', 'Holdings'];
export function fundName(rng: Rng): string {
  const base = makeName(rng).split(' ')[0];
  return `${base} ${rng.pick(FUND_WORDS)}`;
}

const HEX = '0123456789abcdef';
const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

function chars(rng: Rng, alphabet: string, n: number): string {
  let s = '';
  for (let i = 0; i < n; i++) s += alphabet[Math.floor(rng.next() * alphabet.length)];
  return s;
}

/** A contract or wallet address in the chain's style (lowercase for EVM). */
export function makeAddress(rng: Rng, kind: 'evm' | 'solana' | 'tron' | 'ton' | 'other'): string {
  switch (kind) {
    case 'evm':
      return '0x' + chars(rng, HEX, 40);
    case 'solana':
      return chars(rng, B58, 44);
    case 'tron':
      return 'T' + chars(rng, B58, 33);
    case 'ton':
      return 'EQ' + chars(rng, B64, 46);
    case 'other':
      return chars(rng, HEX, 64);
  }
}
