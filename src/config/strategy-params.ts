import type { StrategyDefinition } from '../strategy/contract.ts';
import { MmError } from '../core/errors.ts';
import { configInvalid, problemsFromZod, type ConfigProblem } from './issues.ts';

/** Finds a built-in strategy definition by name (the strategy registry in the CLI, a fake in tests). */
export type StrategyLookup = (name: string) => StrategyDefinition | undefined;

/** True when a config's `strategy` field names a module file rather than a built-in. */
export const isStrategyPath = (name: string): boolean => /^(\.{1,2}[\\/]|[\\/]|[A-Za-z]:[\\/])/.test(name) || /\.(m?[jt]s)$/.test(name);

/**
 * One strategy's params against its definition's zod schema: the parsed (defaulted) params, or the
 * problems named `bot.strategies[i].params.<key>` (each message ends with the strategy's name).
 */
export function strategyParamsResult(definition: StrategyDefinition, params: unknown, index: number): { ok: true; params: Readonly<Record<string, unknown>> } | { ok: false; problems: ConfigProblem[] } {
  const r = definition.params.safeParse(params);
  if (r.success) return { ok: true, params: r.data as Readonly<Record<string, unknown>> };
  const problems = problemsFromZod(r.error.issues, params, ['bot', 'strategies', index, 'params'], definition.params);
  return { ok: false, problems: problems.map((p) => ({ ...p, message: `${p.message} (strategy ${definition.name})` })) };
}

/**
 * The params problems of every entry of a raw (not schema-checked) `bot.strategies` list whose
 * strategy is a known built-in: reported beside the schema's problems, all in one report.
 */
export function rawStrategyParamProblems(raw: unknown, lookup: StrategyLookup): ConfigProblem[] {
  const list = (raw as { bot?: { strategies?: unknown } } | null)?.bot?.strategies;
  if (!Array.isArray(list)) return [];
  const out: ConfigProblem[] = [];
  list.forEach((entry: unknown, index) => {
    const name = (entry as { strategy?: unknown } | null)?.strategy;
    if (typeof name !== 'string' || isStrategyPath(name)) return;
    const definition = lookup(name);
    if (!definition) return;
    const r = strategyParamsResult(definition, (entry as { params?: unknown }).params ?? {}, index);
    if (!r.ok) out.push(...r.problems);
  });
  return out;
}

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
