/** Quote overlays any strategy can stack from config (bot.strategies[].overlays). */
export * from './adjustment.ts';
export * from './overlay.ts';
export * from './funding-carry.ts';
export * from './volatility-widening.ts';
export * from './toxicity-guard.ts';
export * from './reward-aware.ts';
export * from './config.ts';
export * from './with-overlays.ts';
