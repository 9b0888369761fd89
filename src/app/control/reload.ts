import type { BotConfig } from '../../config/index.ts';

/** What a config reload would change live, or why it may not. */
export type ReloadPlan =
  | { readonly ok: true; readonly params: readonly { readonly id: string; readonly params: Readonly<Record<string, unknown>> }[]; readonly risk: boolean }
  | { readonly ok: false; readonly needsRestart: readonly string[] };

const MAX_PATHS = 12;

/** Paths (dotted) where two plain JSON-like trees differ, at most `MAX_PATHS`. */
function diffPaths(a: unknown, b: unknown, path: string, out: string[]): void {
  if (out.length >= MAX_PATHS) return;
  if (a === b) return;
  if (a && b && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) diffPaths((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], path ? `${path}.${k}` : k, out);
    return;
  }
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && JSON.stringify(a) === JSON.stringify(b)) return;
  out.push(path || '(root)');
}

/** The parts of a config a reload may not change: everything but strategy params and risk limits. */
function restartOnly(c: BotConfig): unknown {
  const { risk: _risk, source: _source, ...rest } = c;
  return { ...rest, bot: { ...c.bot, strategies: c.bot.strategies.map(({ params: _p, ...s }) => s) } };
}

/**
 * Compares the running config with a freshly loaded one. Strategy params and the risk section
 * apply live; any other difference (venue, credentials, symbols, strategies added or removed,
 * monitoring...) needs a restart, and then nothing is applied. Pure.
 */
export function planReload(current: BotConfig, next: BotConfig): ReloadPlan {
  const needsRestart: string[] = [];
  diffPaths(restartOnly(current), restartOnly(next), '', needsRestart);
  if (needsRestart.length > 0) return { ok: false, needsRestart };
  const params = next.bot.strategies
    .filter((s, i) => JSON.stringify(s.params) !== JSON.stringify(current.bot.strategies[i]!.params))
    .map((s) => ({ id: s.id, params: s.params as Readonly<Record<string, unknown>> }));
  return { ok: true, params, risk: JSON.stringify(current.risk) !== JSON.stringify(next.risk) };
}
