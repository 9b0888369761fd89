import type { StrategyDefinition } from '../strategy/contract.ts';
import { MmError } from '../core/errors.ts';
import { configInvalid, problemsFromZod } from './issues.ts';

/** Finds a built-in strategy definition by name (the strategy registry in the CLI, a fake in tests). */
export type StrategyLookup = (name: string) => StrategyDefinition | undefined;

/** True when a config's `strategy` field names a module file rather than a built-in. */
export const isStrategyPath = (name: string): boolean => /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/])/.test(name) || /\.(m?[jt]s)$/.test(name);

/**
 * Checks one strategy's params against its definition's zod schema and returns the parsed
 * (defaulted) params.
 * @throws MmError CONFIG_INVALID naming the file and `bot.strategies[i].params.<key>` and the value.
 */
export function checkStrategyParams(
  definition: StrategyDefinition,
  params: unknown,
  where: { readonly file: string; readonly index: number },
): Readonly<Record<string, unknown>> {
  const r = definition.params.safeParse(params);
  if (!r.success) {
    const problems = problemsFromZod(r.error.issues, params, ['bot', 'strategies', where.index, 'params'], definition.params);
    const err = configInvalid(where.file, problems);
    throw new MmError('CONFIG_INVALID', `${err.message} (strategy ${definition.name})`, { ...err.details, strategy: definition.name });
  }
  return r.data as Readonly<Record<string, unknown>>;
}
