import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinDefinitions } from '../../src/app/live/strategies.ts';
import { configJsonSchema } from '../../src/config/index.ts';
import type { StrategyDefinition } from '../../src/strategy/contract.ts';

const ROOT = join(import.meta.dirname, '../..');

describe('config JSON Schema', () => {
  it('docs/config.schema.json is up to date (run `npm run schema`)', async () => {
    const committed = JSON.parse(readFileSync(join(ROOT, 'docs/config.schema.json'), 'utf8')) as unknown;
    expect(committed).toEqual(configJsonSchema(await builtinDefinitions()));
  });

  it('attaches each strategy params schema with an if/then on the strategy name', () => {
    const def: StrategyDefinition = { name: 'x', description: 'X strategy', params: z.strictObject({ levels: z.number().int().default(2) }), create: () => ({ quote: () => null }) };
    const schema = configJsonSchema([def]) as { properties: { bot: { properties: { strategies: { items: { allOf: unknown[] } } } } } };
    expect(schema.properties.bot.properties.strategies.items.allOf).toEqual([
      {
        if: { properties: { strategy: { const: 'x' } }, required: ['strategy'] },
        then: {
          properties: {
            params: {
              description: 'X strategy',
              type: 'object',
              properties: { levels: { type: 'integer', default: 2, minimum: -9007199254740991, maximum: 9007199254740991 } },
              additionalProperties: false,
            },
          },
        },
      },
    ]);
  });
});
