import { z } from 'zod';
import type { StrategyDefinition } from '../strategy/contract.ts';
import { botConfigSchema } from './schema.ts';

type JsonObject = Record<string, unknown>;

/**
 * The JSON Schema (draft-07, what YAML editors understand) of the config file, for
 * docs/config.schema.json. Each given strategy's params schema is attached with an if/then on the
 * entry's `strategy` name, so editors complete and check params too.
 */
export function configJsonSchema(strategies: readonly StrategyDefinition[] = []): JsonObject {
  const schema = z.toJSONSchema(botConfigSchema, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as JsonObject;
  const items = dig(schema, ['properties', 'bot', 'properties', 'strategies', 'items']);
  if (items && strategies.length > 0) {
    items['allOf'] = [...strategies]
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((def) => {
        const params = z.toJSONSchema(def.params, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as JsonObject;
        delete params['$schema'];
        return {
          if: { properties: { strategy: { const: def.name } }, required: ['strategy'] },
          then: { properties: { params: { description: def.description, ...params } } },
        };
      });
  }
  const { $schema, ...rest } = schema;
  return { $schema, title: 'mmbot config', ...rest };
}

function dig(obj: JsonObject, path: readonly string[]): JsonObject | undefined {
  let cur: unknown = obj;
  for (const k of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as JsonObject)[k];
  }
  return cur !== null && typeof cur === 'object' ? (cur as JsonObject) : undefined;
}
