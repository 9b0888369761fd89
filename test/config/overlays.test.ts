import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../src/config/index.ts';
import type { StrategyDefinition } from '../../src/strategy/contract.ts';

const def: StrategyDefinition = { name: 's', description: '', params: z.object({}), create: () => ({ quote: () => null }) };
const parse = (overlays: string) => parseConfig(`venue: { mode: embedded-sim }\nbot:\n  strategies:\n    - { symbol: EURUSD-PERP, strategy: s, overlays: ${overlays} }\n`, 'x.yaml', { strategies: () => def });

describe('bot.strategies[].overlays', () => {
  it('defaults to none and parses each kind with its defaults', () => {
    expect(parseConfig('venue: { mode: embedded-sim }\nbot:\n  strategies: [{ symbol: EURUSD-PERP, strategy: s }]\n', 'x.yaml', { strategies: () => def }).bot.strategies[0]!.overlays).toEqual([]);
    const c = parse('[{ kind: funding-carry }, { kind: volatility, sensitivity: 2 }, { kind: toxicity }, { kind: reward-aware, poolUsdPerDay: 500 }]');
    expect(c.bot.strategies[0]!.overlays.map((o) => o.kind)).toEqual(['funding-carry', 'volatility', 'toxicity', 'reward-aware']);
    expect(c.bot.strategies[0]!.overlays[0]).toMatchObject({ maxShiftSpreads: 1, guardWindowS: 300, guardSizeMult: 0.5 });
    expect(c.bot.strategies[0]!.overlays[1]).toMatchObject({ sensitivity: 2, fastHalfLifeS: 30 });
  });

  it('names the file, path and problem for a bad overlay', () => {
    expect(() => parse('[{ kind: funding-carry, maxShiftSpreads: -1 }]')).toThrow(/x\.yaml.*bot\.strategies\[0\]\.overlays\[0\]\.maxShiftSpreads/s);
    expect(() => parse('[{ kind: reward-aware }]')).toThrow(/overlays\[0\]\.poolUsdPerDay/);
    expect(() => parse('[{ kind: nope }]')).toThrow(/overlays\[0\]\.kind/);
    expect(() => parse('[{ kind: toxicity, typo: 1 }]')).toThrow(/overlays\[0\]/);
  });
});
