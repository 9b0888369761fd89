import { readFileSync } from 'node:fs';
import { basename, dirname, extname, isAbsolute, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { MmError } from '../core/errors.ts';
import { substituteEnv, type ConfigEnv } from './env.ts';
import { deepFreeze, type DeepReadonly } from './freeze.ts';
import { configInvalid, problemsFromZod, type ConfigProblem } from './issues.ts';
import { formatPath } from './path.ts';
import { reservedKeyProblems } from './reserved-keys.ts';
import { literalSecretPaths, weakTokenReason } from './secrets.ts';
import { botConfigSchema, type BotConfigParsed, type EmbeddedVenueConfig, type RemoteVenueConfig, type StrategyEntryConfig } from './schema.ts';
import { isStrategyPath, rawStrategyParamProblems, strategyParamsResult, type StrategyLookup } from './strategy-params.ts';

/** Most alias expansions a config file may use (a handful is normal; a YAML bomb needs millions). */
const MAX_YAML_ALIAS_COUNT = 100;

/** A strategy entry after loading: params are checked when the strategy is built in. */
export type LoadedStrategyEntry = StrategyEntryConfig & {
  /** True when `params` passed the strategy's schema; false for module-path strategies (checked at start-up). */
  readonly paramsChecked: boolean;
};

/** The validated, defaulted, deep-frozen bot config. */
export type BotConfig = DeepReadonly<
  Omit<BotConfigParsed, '$schema' | 'venue' | 'bot'> & {
    venue: EmbeddedVenueConfig | (RemoteVenueConfig & { ws_url: string });
    bot: Omit<BotConfigParsed['bot'], 'strategies'> & { strategies: LoadedStrategyEntry[] };
    /**
     * Where the config came from; relative paths in it were resolved against `dir`.
     * `literalSecrets`: paths of secrets written in the file rather than `${ENV}` references.
     */
    source: { file: string; dir: string; literalSecrets?: readonly string[] };
  }
>;

/** Options of loadConfig/parseConfig. */
export interface LoadConfigOptions {
  /** Where `${VAR}` references are looked up; the CLI passes `process.env`. Default: empty. */
  readonly env?: ConfigEnv;
  /** Built-in strategy lookup for params validation. Default: none (every name is unknown). */
  readonly strategies?: StrategyLookup;
}

/**
 * Reads, validates and freezes a bot config file.
 * @throws MmError FILE_NOT_FOUND, CONFIG_INVALID (file, path, value), CONFIG_ENV_MISSING, STRATEGY_INVALID.
 */
export function loadConfig(path: string, options: LoadConfigOptions = {}): BotConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new MmError('FILE_NOT_FOUND', `cannot read config ${path}: ${(e as NodeJS.ErrnoException).code ?? String(e)}`, { file: path }, { cause: e });
  }
  return parseConfig(text, path, options);
}

/**
 * Validates config text as if read from `file` (relative paths resolve against its directory).
 * @throws MmError CONFIG_INVALID, CONFIG_ENV_MISSING, STRATEGY_INVALID.
 */
export function parseConfig(text: string, file: string, options: LoadConfigOptions = {}): BotConfig {
  const dir = dirname(resolve(file));
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw configInvalid(
      file,
      doc.errors.map((e) => ({ path: e.linePos ? `line ${e.linePos[0].line}, column ${e.linePos[0].col}` : '(yaml)', message: e.message.split('\n')[0]!, value: undefined })),
    );
  }
  let tree: unknown;
  try {
    // maxAliasCount bounds alias expansion: a "billion laughs" file is refused, not expanded.
    tree = doc.toJS({ maxAliasCount: MAX_YAML_ALIAS_COUNT });
  } catch (e) {
    throw configInvalid(file, [{ path: '(yaml)', message: `cannot expand the YAML: ${e instanceof Error ? e.message : String(e)} (at most ${MAX_YAML_ALIAS_COUNT} alias expansions)`, value: undefined }]);
  }
  const literalSecrets = literalSecretPaths(tree, options.env ?? {});
  const raw = substituteEnv(tree, options.env ?? {}, file);
  const lookup = options.strategies ?? (() => undefined);
  const r = botConfigSchema.safeParse(raw);
  // `__proto__` keys are refused wherever they are: in an open record (strategy params) zod would
  // drop them without a word, elsewhere they are reported once here rather than as unknown keys.
  const reserved = reservedKeyProblems(tree);
  const reservedPaths = new Set(reserved.map((p) => p.path));
  // Schema problems and strategy-parameter problems in one report, not one fix-and-rerun each.
  if (!r.success || reserved.length > 0)
    throw configInvalid(file, [...reserved, ...(r.success ? [] : problemsFromZod(r.error.issues, raw, [], botConfigSchema)), ...rawStrategyParamProblems(raw, lookup)].filter((p, i) => i < reserved.length || !reservedPaths.has(p.path)));
  const parsed = r.data;

  const problems: ConfigProblem[] = [];
  const seen = new Set<string>();
  const owners = new Map<string, string>();
  const strategies = parsed.bot.strategies.map((entry, index): LoadedStrategyEntry => {
    const isPath = isStrategyPath(entry.strategy);
    const strategy = isPath && !isAbsolute(entry.strategy) ? resolve(dir, entry.strategy) : entry.strategy;
    const shortName = isPath ? basename(strategy, extname(strategy)) : strategy;
    const symbols = entrySymbols(entry, index, problems);
    const symbol = symbols[0] ?? '';
    const id = entry.id ?? `${shortName}:${symbol}`;
    if (seen.has(id)) problems.push({ path: formatPath(['bot', 'strategies', index, 'id']), message: `duplicate strategy id "${id}" (set a distinct id)`, value: id });
    seen.add(id);
    for (const [k, s] of symbols.entries()) {
      const owner = owners.get(s);
      const path = formatPath(entry.symbols ? ['bot', 'strategies', index, 'symbols', k] : ['bot', 'strategies', index, 'symbol']);
      if (owner !== undefined) problems.push({ path, message: `symbol "${s}" already belongs to strategy "${owner}" (each symbol has at most one strategy)`, value: s });
      else owners.set(s, id);
    }
    if (isPath) return { id, symbol, symbols, strategy, params: entry.params, overlays: entry.overlays, paramsChecked: false };
    const definition = lookup(entry.strategy);
    if (!definition) {
      throw new MmError('STRATEGY_INVALID', `${file}: ${formatPath(['bot', 'strategies', index, 'strategy'])}: unknown strategy "${entry.strategy}"`, {
        file,
        path: formatPath(['bot', 'strategies', index, 'strategy']),
        value: entry.strategy,
      });
    }
    const checked = strategyParamsResult(definition, entry.params, index);
    if (!checked.ok) problems.push(...checked.problems);
    return { id, symbol, symbols, strategy, params: checked.ok ? checked.params : entry.params, overlays: entry.overlays, paramsChecked: true };
  });

  const feedNames = new Set<string>();
  const reference_feeds = parsed.reference_feeds.map((f, i) => {
    if (feedNames.has(f.name)) problems.push({ path: formatPath(['reference_feeds', i, 'name']), message: `duplicate feed name "${f.name}"`, value: f.name });
    feedNames.add(f.name);
    if (!owners.has(f.symbol)) problems.push({ path: formatPath(['reference_feeds', i, 'symbol']), message: `"${f.symbol}" is not a symbol of any strategy`, value: f.symbol });
    return 'file' in f.source ? { ...f, source: { ...f.source, file: resolve(dir, f.source.file) } } : f;
  });

  const venue = parsed.venue.mode === 'remote' ? { ...parsed.venue, ws_url: parsed.venue.ws_url ?? parsed.venue.base_url.replace(/^http/, 'ws') } : resolveSim(parsed.venue, dir);
  if (venue.mode === 'embedded-sim' && parsed.monitoring.enabled && venue.sim.port !== 0 && venue.sim.port === parsed.monitoring.port) {
    problems.push({ path: 'monitoring.port', message: `same port as venue.sim.port (${venue.sim.port})`, value: parsed.monitoring.port });
  }
  const weak = weakTokenReason(parsed.monitoring.control.token);
  if (weak !== null) problems.push({ path: 'monitoring.control.token', message: `control token ${weak}`, value: '(redacted)' });
  if (problems.length > 0) throw configInvalid(file, problems);

  const { $schema: _schema, ...rest } = parsed;
  const recording = parsed.recording ? { ...parsed.recording, path: resolve(dir, parsed.recording.path) } : undefined;
  return deepFreeze({
    ...rest,
    venue,
    bot: { ...parsed.bot, strategies },
    reference_feeds,
    ...(recording ? { recording } : {}),
    source: { file, dir, ...(literalSecrets.length > 0 ? { literalSecrets } : {}) },
  });
}

/** An entry's symbols, primary first: exactly one of `symbol` and `symbols`, no repeats (problems named by path). */
function entrySymbols(entry: { symbol?: string | undefined; symbols?: readonly string[] | undefined }, index: number, problems: ConfigProblem[]): readonly string[] {
  const at = (...p: (string | number)[]): string => formatPath(['bot', 'strategies', index, ...p]);
  if (entry.symbol !== undefined && entry.symbols !== undefined) {
    problems.push({ path: at('symbols'), message: 'set either symbol or symbols, not both', value: entry.symbols });
    return [entry.symbol];
  }
  if (entry.symbols !== undefined) {
    const dup = entry.symbols.find((s, i) => entry.symbols!.indexOf(s) !== i);
    if (dup !== undefined) problems.push({ path: at('symbols'), message: `"${dup}" is listed twice`, value: entry.symbols });
    return [...new Set(entry.symbols)];
  }
  if (entry.symbol === undefined) {
    problems.push({ path: at('symbol'), message: 'missing: set symbol (or symbols for a multi-symbol strategy)', value: undefined });
    return [];
  }
  return [entry.symbol];
}

function resolveSim(venue: EmbeddedVenueConfig, dir: string): EmbeddedVenueConfig {
  if (venue.sim.config === undefined) return venue;
  return { ...venue, sim: { ...venue.sim, config: resolve(dir, venue.sim.config) } };
}
