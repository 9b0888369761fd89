import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import { parseConfig, type BotConfig } from '../config/index.ts';
import { MmError } from '../core/errors.ts';
import type { RunSpec } from '../backtest/run-spec.ts';
import { backtestSectionSchema, toSettings, type BacktestSection } from '../backtest/settings.ts';
import type { GridPoint } from '../backtest/sweep.ts';
import { engineConfigs } from '../app/live/engine-config.ts';
import { builtinLookup } from '../app/live/strategies.ts';

/** A backtest config loaded: the bot config (daemon format), its backtest section and the run spec. */
export interface BacktestSetup {
  readonly config: BotConfig;
  readonly section: BacktestSection;
  readonly spec: RunSpec;
  /** Recordings from `backtest.data`, resolved against the config's directory. */
  readonly dataPaths: readonly string[];
}

/** Sets `value` at a dotted path (`bot.strategies.0.params.size`) inside a plain YAML object. */
function setPath(root: Record<string, unknown>, path: string, value: unknown, file: string): void {
  const keys = path.split('.');
  let cur: unknown = root;
  for (let k = 0; k < keys.length - 1; k++) {
    const key = keys[k]!;
    const next = Array.isArray(cur) ? cur[Number(key)] : (cur as Record<string, unknown>)[key];
    if (next === undefined) {
      const created: Record<string, unknown> = {};
      if (Array.isArray(cur) || typeof cur !== 'object' || cur === null) throw new MmError('CONFIG_INVALID', `${file}: grid path ${path}: ${keys.slice(0, k + 1).join('.')} does not exist`);
      (cur as Record<string, unknown>)[key] = created;
      cur = created;
    } else cur = next;
  }
  if (typeof cur !== 'object' || cur === null) throw new MmError('CONFIG_INVALID', `${file}: grid path ${path} does not lead into an object`);
  const last = keys.at(-1)!;
  if (Array.isArray(cur)) cur[Number(last)] = value;
  else (cur as Record<string, unknown>)[last] = value;
}

/**
 * Loads a backtest config: the daemon's config format plus a `backtest:` section, with optional
 * grid overrides applied to the raw document first (sweeps). The daemon's loader validates
 * everything, the `backtest:` section included; errors name the file, path and value.
 * @throws MmError FILE_NOT_FOUND, CONFIG_INVALID, CONFIG_ENV_MISSING, STRATEGY_INVALID.
 */
export async function loadBacktestSetup(file: string, overrides: GridPoint = []): Promise<BacktestSetup> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new MmError('FILE_NOT_FOUND', `cannot read config ${file}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file });
  }
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) return parseConfig(text, file) as never; // the daemon's loader reports YAML errors with positions
  const raw = (doc.toJS({ maxAliasCount: 100 }) ?? {}) as Record<string, unknown>;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new MmError('CONFIG_INVALID', `${file}: expected a mapping at the top level`);
  for (const [path, value] of overrides) setPath(raw, path, value, file);
  // The daemon's schema validates the backtest: section too (errors name file, path and value).
  const config = parseConfig(stringify(raw), file, { env: process.env, strategies: await builtinLookup() });
  const section: BacktestSection = (config.backtest as BacktestSection | undefined) ?? backtestSectionSchema.parse({});
  const eng = engineConfigs(config);
  const dir = dirname(resolve(file));
  const spec: RunSpec = {
    strategies: config.bot.strategies.map((s) => ({ id: s.id, symbol: s.symbol, symbols: s.symbols, strategy: s.strategy, params: s.params, overlays: s.overlays })),
    risk: eng.risk,
    execution: eng.execution,
    orderManager: eng.orderManager,
    engineFees: null,
    settings: toSettings(section, eng.explicitFees, embeddedRateLimit(config), dir),
    stopTimeoutMs: eng.stopTimeoutMs,
  };
  return { config, section, spec, dataPaths: (section.data ?? []).map((p) => resolve(dir, p)) };
}

/** The embedded venue's order-entry limit when the config runs one with `rate_limit` knobs (the live budget). */
function embeddedRateLimit(config: BotConfig): { enabled?: boolean; burst?: number; perSecond?: number } | null {
  if (config.venue.mode !== 'embedded-sim') return null;
  const rl = (config.venue.sim.knobs as { rate_limit?: { enabled?: boolean; burst?: number; per_second?: number } } | undefined)?.rate_limit;
  if (!rl) return null;
  return { ...(rl.enabled === undefined ? {} : { enabled: rl.enabled }), ...(rl.burst === undefined ? {} : { burst: rl.burst }), ...(rl.per_second === undefined ? {} : { perSecond: rl.per_second }) };
}

/** Where decoded recordings are cached (binary sidecars keyed by path, size and mtime). */
export const replayCacheDir = (): string => join(tmpdir(), 'mmbot-replay-cache');

/**
 * A fresh report folder under `parent`: backtest-<recording start>-<n>, the lowest free n. (The
 * parent is made first: made on a first ENOENT, a fresh clone's first report was numbered 2.)
 */
export function defaultOutDir(parent: string, startMs: number): string {
  const stamp = new Date(startMs).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  mkdirSync(parent, { recursive: true });
  for (let n = 1; ; n++) {
    const dir = join(parent, `backtest-${stamp}-${n}`);
    try {
      mkdirSync(dir, { recursive: false });
      return dir;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
}
