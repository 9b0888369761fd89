import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MmError } from '../../src/core/errors.ts';
import { loadConfig, parseConfig, type LoadConfigOptions } from '../../src/config/index.ts';
import type { StrategyDefinition } from '../../src/strategy/contract.ts';

const fakeStrategy: StrategyDefinition = {
  name: 'fake-spread',
  description: 'test double',
  params: z.strictObject({ levels: z.number().int().min(1).default(1), spread_ticks: z.number().int().positive() }),
  create: () => ({ quote: () => null }),
};
const opts: LoadConfigOptions = { strategies: (n) => (n === fakeStrategy.name ? fakeStrategy : undefined), env: { AX_KEY: 'key-1', AX_SECRET: 's3cr3t' } };

const MINIMAL = `
venue:
  mode: embedded-sim
bot:
  strategies:
    - symbol: EURUSD-PERP
      strategy: fake-spread
      params: { spread_ticks: 4 }
`;

const REMOTE = `
venue:
  mode: remote
  base_url: https://gateway.sandbox.example.com
  api_key: \${AX_KEY}
  api_secret: \${AX_SECRET}
bot:
  strategies:
    - { symbol: EURUSD-PERP, strategy: fake-spread, params: { spread_ticks: 2 } }
`;

/** Runs `fn`, expecting an MmError; returns it. */
function mmError(fn: () => unknown): MmError {
  try {
    fn();
  } catch (e) {
    if (e instanceof MmError) return e;
    throw e;
  }
  throw new Error('expected an MmError, nothing was thrown');
}

describe('parseConfig: good configs', () => {
  it('applies defaults and checks strategy params with the strategy schema', () => {
    const c = parseConfig(MINIMAL, 'mini.yaml', opts);
    expect(c.venue.mode).toBe('embedded-sim');
    if (c.venue.mode !== 'embedded-sim') throw new Error('unreachable');
    expect(c.venue.sim).toEqual({ host: '127.0.0.1', port: 0 });
    expect(c.monitoring).toEqual({ enabled: true, host: '127.0.0.1', port: 9464, allowed_hosts: [], control: { enabled: true, token: '', reads_require_token: false, history_ms: 3_600_000, max_stream_clients: 32 } });
    expect(c.logging).toEqual({ level: 'info', pretty: 'auto' });
    expect(c.bot.unknown_orders).toBe('cancel');
    expect(c.bot.strategies).toEqual([
      { id: 'fake-spread:EURUSD-PERP', symbol: 'EURUSD-PERP', symbols: ['EURUSD-PERP'], strategy: 'fake-spread', params: { levels: 1, spread_ticks: 4 }, overlays: [], paramsChecked: true },
    ]);
    expect(c.recording).toBeUndefined();
  });

  it('returns a deep-frozen object', () => {
    const c = parseConfig(MINIMAL, 'mini.yaml', opts);
    expect(Object.isFrozen(c)).toBe(true);
    expect(Object.isFrozen(c.bot.strategies[0]!.params)).toBe(true);
    expect(() => {
      (c.monitoring as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('reads secrets from ${ENV} references and derives ws_url from base_url', () => {
    const c = parseConfig(REMOTE, 'live.yaml', opts);
    if (c.venue.mode !== 'remote') throw new Error('expected remote');
    expect(c.venue.api_key).toBe('key-1');
    expect(c.venue.api_secret).toBe('s3cr3t');
    expect(c.venue.ws_url).toBe('wss://gateway.sandbox.example.com');
    expect(c.venue.token_ttl_s).toBe(3600);
  });

  it('supports ${VAR:-default} and the $${ escape', () => {
    const text = MINIMAL.replace('mode: embedded-sim', () => 'mode: embedded-sim\n  account_id: "${ACCT:-demo}-$${x}"');
    const c = parseConfig(text, 'x.yaml', opts);
    expect(c.venue.account_id).toBe('demo-${x}');
  });

  it('resolves module-path strategies and file paths against the config directory, params unchecked', () => {
    const text = `
venue: { mode: embedded-sim, sim: { config: venue.yaml } }
recording: { path: rec/out.jsonl.gz }
bot:
  strategies:
    - { symbol: EURUSD-PERP, strategy: ./my-strat.ts, params: { anything: [1, 2] } }
`;
    const c = parseConfig(text, '/etc/mmbot/bot.yaml', opts);
    expect(c.bot.strategies[0]).toMatchObject({ id: 'my-strat:EURUSD-PERP', strategy: '/etc/mmbot/my-strat.ts', paramsChecked: false, params: { anything: [1, 2] } });
    expect(c.recording?.path).toBe('/etc/mmbot/rec/out.jsonl.gz');
    if (c.venue.mode !== 'embedded-sim') throw new Error('unreachable');
    expect(c.venue.sim.config).toBe('/etc/mmbot/venue.yaml');
    expect(c.source).toEqual({ file: '/etc/mmbot/bot.yaml', dir: '/etc/mmbot' });
  });

  it('keeps engine-level sections optional (absent fields take the engine defaults)', () => {
    const text = `${MINIMAL}
risk:
  max_position: 10
  symbols: { EURUSD-PERP: { max_order_qty: 3 } }
  kill_switch: { max_drawdown_usd: 50 }
execution:
  budgets: [{ name: orders, capacity: 10, refill_per_sec: 5, costs: { place: 1, cancel: 1 } }]
order_manager: { reprice: bo, size_tolerance: 0.2 }
`;
    const c = parseConfig(text, 'x.yaml', opts);
    expect(c.risk).toEqual({ max_position: 10, symbols: { 'EURUSD-PERP': { max_order_qty: 3 } }, kill_switch: { max_drawdown_usd: 50 } });
    expect(c.execution.budgets?.[0]?.costs).toEqual({ place: 1, cancel: 1 });
    expect(c.order_manager).toEqual({ reprice: 'bo', size_tolerance: 0.2, stop_timeout_ms: 5000 });
  });
});

describe('parseConfig: bad configs name the file, path and value', () => {
  it('a wrong type in a strategy param', () => {
    const e = mmError(() => parseConfig(MINIMAL.replace('spread_ticks: 4', 'spread_ticks: four'), 'demo.yaml', opts));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toContain('demo.yaml: bot.strategies[0].params.spread_ticks: expected number, got "four"');
    expect(e.details).toMatchObject({ file: 'demo.yaml', path: 'bot.strategies[0].params.spread_ticks', value: 'four' });
  });

  it('an out-of-range value', () => {
    const e = mmError(() => parseConfig(`${MINIMAL}\nmonitoring: { port: 70000 }\n`, 'demo.yaml', opts));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.details).toMatchObject({ path: 'monitoring.port', value: 70000 });
    expect(e.message).toMatch(/monitoring\.port: .*got 70000/);
  });

  it('an unknown key (a typo must not fall back to a default)', () => {
    const e = mmError(() => parseConfig(MINIMAL.replace('mode: embedded-sim', 'mode: embedded-sim\n  sim: { prot: 8080 }'), 'demo.yaml', opts));
    expect(e.message).toContain('demo.yaml: venue.sim.prot: unknown key (did you mean "port"?)');
    expect(e.details).toMatchObject({ path: 'venue.sim.prot', value: 8080 });
  });

  it('unknown keys suggest the intended one, inside unions, lists and strategy params', () => {
    const e1 = mmError(() => parseConfig(`${MINIMAL}\nmonitoring: { prot: 1 }\norder_manager: { min_order_lifetime: 5 }\n`, 'demo.yaml', opts));
    expect(e1.message).toContain('monitoring.prot: unknown key (did you mean "port"?)');
    expect(e1.message).toContain('order_manager.min_order_lifetime: unknown key (did you mean "min_order_lifetime_ms"?)');
    const e2 = mmError(() => parseConfig(REMOTE.replace('base_url', 'base_uri'), 'live.yaml', opts));
    expect(e2.message).toContain('venue.base_uri: unknown key (did you mean "base_url"?)');
    const e3 = mmError(() => parseConfig(MINIMAL.replace('spread_ticks: 4', 'spread_ticks: 4, levles: 2'), 'demo.yaml', opts));
    expect(e3.message).toContain('bot.strategies[0].params.levles: unknown key (did you mean "levels"?)');
    const e4 = mmError(() => parseConfig(`${MINIMAL}\nrisk: { zzz: 1 }\n`, 'demo.yaml', opts));
    expect(e4.message).toContain('risk.zzz: unknown key');
    expect(e4.message).not.toContain('did you mean');
  });

  it('a key of the other venue mode names that mode, not itself as the typo', () => {
    const e = mmError(() => parseConfig(REMOTE.replace('mode: remote', 'mode: remote\n  sim: { port: 0 }'), 'live.yaml', opts));
    expect(e.message).toBe('live.yaml: venue.sim: unknown key here (only with mode: embedded-sim)');
    const e2 = mmError(() => parseConfig(MINIMAL.replace('mode: embedded-sim', 'mode: embedded-sim\n  token_ttl_s: 60'), 'demo.yaml', opts));
    expect(e2.message).toBe('demo.yaml: venue.token_ttl_s: unknown key here (only with mode: remote)');
  });

  it('an unknown venue mode', () => {
    const e = mmError(() => parseConfig(MINIMAL.replace('embedded-sim', 'paper'), 'demo.yaml', opts));
    expect(e.details).toMatchObject({ path: 'venue.mode', value: 'paper' });
    expect(e.message).toContain('embedded-sim');
  });

  it('a missing required section', () => {
    const e = mmError(() => parseConfig('venue: { mode: embedded-sim }\n', 'demo.yaml', opts));
    expect(e.message).toContain('demo.yaml: bot: missing (expected object)');
  });

  it('several problems at once are all listed', () => {
    const e = mmError(() => parseConfig(`${MINIMAL}\nlogging: { level: loud }\nrewards: { poll_interval_ms: -1 }\n`, 'demo.yaml', opts));
    expect(e.message).toContain('2 problems in demo.yaml');
    expect(e.message).toContain('logging.level');
    expect(e.message).toContain('rewards.poll_interval_ms');
  });

  it('per-symbol risk keys are quoted in paths', () => {
    const e = mmError(() => parseConfig(`${MINIMAL}\nrisk: { symbols: { EURUSD-PERP: { max_order_qty: 0 } } }\n`, 'demo.yaml', opts));
    expect(e.details).toMatchObject({ path: 'risk.symbols["EURUSD-PERP"].max_order_qty', value: 0 });
  });

  it('an unknown strategy is STRATEGY_INVALID naming the entry', () => {
    const e = mmError(() => parseConfig(MINIMAL.replace('fake-spread', 'nope'), 'demo.yaml', opts));
    expect(e.code).toBe('STRATEGY_INVALID');
    expect(e.message).toContain('demo.yaml: bot.strategies[0].strategy: unknown strategy "nope"');
  });

  it('duplicate strategy ids', () => {
    const text = `venue: { mode: embedded-sim }
bot:
  strategies:
    - { symbol: EURUSD-PERP, strategy: fake-spread, params: { spread_ticks: 1 } }
    - { symbol: EURUSD-PERP, strategy: fake-spread, params: { spread_ticks: 2 } }
`;
    const e = mmError(() => parseConfig(text, 'demo.yaml', opts));
    expect(e.details).toMatchObject({ path: 'bot.strategies[1].id', value: 'fake-spread:EURUSD-PERP' });
  });

  it('symbols of a multi-symbol strategy: primary first, the id names the primary', () => {
    const text = `venue: { mode: embedded-sim }
bot:
  strategies:
    - { symbols: [XAU-PERP, XAU-2026-DEC], strategy: fake-spread, params: { spread_ticks: 1 } }
    - { symbol: EURUSD-PERP, strategy: fake-spread, params: { spread_ticks: 2 } }
`;
    const c = parseConfig(text, 'demo.yaml', opts);
    expect(c.bot.strategies.map((s) => [s.id, s.symbol, s.symbols])).toEqual([
      ['fake-spread:XAU-PERP', 'XAU-PERP', ['XAU-PERP', 'XAU-2026-DEC']],
      ['fake-spread:EURUSD-PERP', 'EURUSD-PERP', ['EURUSD-PERP']],
    ]);
  });

  it('symbol and symbols: exactly one, no repeats, each symbol owned by one strategy', () => {
    const entry = (e: string): string => `venue: { mode: embedded-sim }\nbot:\n  strategies:\n    - { ${e}strategy: fake-spread, params: { spread_ticks: 1 } }\n`;
    expect(mmError(() => parseConfig(entry('symbol: A, symbols: [A, B], '), 'demo.yaml', opts)).message).toContain('demo.yaml: bot.strategies[0].symbols: set either symbol or symbols, not both');
    expect(mmError(() => parseConfig(entry(''), 'demo.yaml', opts)).message).toContain('demo.yaml: bot.strategies[0].symbol: missing: set symbol (or symbols');
    expect(mmError(() => parseConfig(entry('symbols: [A, B, A], '), 'demo.yaml', opts)).message).toContain('bot.strategies[0].symbols: "A" is listed twice');
    expect(mmError(() => parseConfig(entry('symbols: [], '), 'demo.yaml', opts)).message).toContain('bot.strategies[0].symbols');
    const twice = `venue: { mode: embedded-sim }
bot:
  strategies:
    - { symbols: [XAU-PERP, XAU-2026-DEC], strategy: fake-spread, params: { spread_ticks: 1 } }
    - { id: other, symbol: XAU-2026-DEC, strategy: fake-spread, params: { spread_ticks: 2 } }
`;
    const e = mmError(() => parseConfig(twice, 'demo.yaml', opts));
    expect(e.message).toContain('demo.yaml: bot.strategies[1].symbol: symbol "XAU-2026-DEC" already belongs to strategy "fake-spread:XAU-PERP"');
    expect(e.details).toMatchObject({ path: 'bot.strategies[1].symbol', value: 'XAU-2026-DEC' });
  });

  it('a missing environment variable is CONFIG_ENV_MISSING naming file, path and variable', () => {
    const e = mmError(() => parseConfig(REMOTE, 'live.yaml', { ...opts, env: { AX_KEY: 'k' } }));
    expect(e.code).toBe('CONFIG_ENV_MISSING');
    expect(e.message).toBe('live.yaml: venue.api_secret: environment variable AX_SECRET is not set');
    expect(e.details).toMatchObject({ file: 'live.yaml', path: 'venue.api_secret', variable: 'AX_SECRET' });
  });

  it('an empty variable counts as missing, and the message says it is empty', () => {
    const e = mmError(() => parseConfig(REMOTE, 'live.yaml', { ...opts, env: { AX_KEY: 'k', AX_SECRET: '' } }));
    expect(e.code).toBe('CONFIG_ENV_MISSING');
    expect(e.message).toBe('live.yaml: venue.api_secret: environment variable AX_SECRET is set but empty');
  });

  it('a remote venue without base_url, and a non-http URL', () => {
    const e1 = mmError(() => parseConfig(REMOTE.replace(/ {2}base_url:.*\n/, ''), 'live.yaml', opts));
    expect(e1.details).toMatchObject({ path: 'venue.base_url' });
    const e2 = mmError(() => parseConfig(REMOTE.replace('https://', 'ftp://'), 'live.yaml', opts));
    expect(e2.details).toMatchObject({ path: 'venue.base_url', value: 'ftp://gateway.sandbox.example.com' });
  });

  it('the metrics port colliding with a fixed embedded venue port', () => {
    const text = MINIMAL.replace('mode: embedded-sim', 'mode: embedded-sim\n  sim: { port: 9464 }');
    const e = mmError(() => parseConfig(text, 'demo.yaml', opts));
    expect(e.details).toMatchObject({ path: 'monitoring.port', value: 9464 });
  });

  it('YAML syntax errors name the line', () => {
    const e = mmError(() => parseConfig('venue: {mode: embedded-sim\nbot: [', 'broken.yaml', opts));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toMatch(/broken\.yaml: line \d+, column \d+: /);
  });

  it('duplicate YAML keys are errors', () => {
    const e = mmError(() => parseConfig(`${MINIMAL}\nmonitoring: { port: 1 }\nmonitoring: { port: 2 }\n`, 'dup.yaml', opts));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toContain('dup.yaml: line');
  });

  it('an empty file', () => {
    const e = mmError(() => parseConfig('', 'empty.yaml', opts));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toContain('empty.yaml: (root): expected object, got null');
  });
});

describe('loadConfig', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmbot-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads a file and names it in errors', () => {
    const good = join(dir, 'good.yaml');
    writeFileSync(good, MINIMAL);
    expect(loadConfig(good, opts).source.file).toBe(good);
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, MINIMAL.replace('spread_ticks: 4', 'spread_ticks: -4'));
    expect(mmError(() => loadConfig(bad, opts)).message).toContain(`${bad}: bot.strategies[0].params.spread_ticks`);
  });

  it('a missing file is FILE_NOT_FOUND', () => {
    const e = mmError(() => loadConfig(join(dir, 'nope.yaml'), opts));
    expect(e.code).toBe('FILE_NOT_FOUND');
    expect(e.message).toContain('nope.yaml');
  });
});
