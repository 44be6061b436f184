/**
 * The one instant every frozen-clock run calculates at: the formula tests, the
 * client tests, the emulator tests, the formula examples and the chaos run.
 * Answers (and so expected values) depend on it; change it here only.
 */
export const FROZEN_ISO = '2026-03-15T12:00:00.000Z';
export const FROZEN_NOW = Date.parse(FROZEN_ISO);
