import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../src/config/index.ts';
import { MmError } from '../../src/core/errors.ts';
import type { StrategyDefinition } from '../../src/strategy/contract.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-hostile-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fake: StrategyDefinition = {
  name: 'fake-spread',
  description: 'test',
  params: z.strictObject({ spread_ticks: z.number().int().positive(), levels: z.number().int().positive().default(1) }),
  create: () => ({ quote: () => null }),
};
const opts = { strategies: (n: string) => (n === 'fake-spread' ? fake : undefined) };

/** A YAML "billion laughs": 9 levels of 9 aliases each (9^9 nodes if expanded). */
const BOMB = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  ...Array.from({ length: 8 }, (_, i) => {
    const prev = String.fromCharCode(97 + i);
    const cur = String.fromCharCode(98 + i);
    return `${cur}: &${cur} [*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev},*${prev}]`;
  }),
  'venue: { mode: embedded-sim }',
  'bot: { strategies: [{ symbol: X, strategy: fake-spread, params: { spread_ticks: 1 } }] }',
  '',
].join('\n');

function mmError(fn: () => unknown): MmError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(MmError);
    return e as MmError;
  }
  throw new Error('expected an MmError');
}

describe('hostile configs (issue 24 #9)', () => {
  it('a YAML alias bomb is CONFIG_INVALID naming the limit, not a stack trace', () => {
    const e = mmError(() => parseConfig(BOMB, 'bomb.yaml', opts));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toBe('bomb.yaml: (yaml): cannot expand the YAML: Excessive alias count indicates a resource exhaustion attack (at most 100 alias expansions)');
  });

  it('mmbot config check on the bomb exits 2 with one line on stderr', async () => {
    const file = join(dir, 'bomb.yaml');
    writeFileSync(file, BOMB);
    const err = (await promisify(execFile)(process.execPath, ['bin/mmbot.js', 'config', 'check', file], { cwd: ROOT, timeout: 60_000 }).catch((x: unknown) => x)) as { code: number; stderr: string };
    expect(err.code).toBe(2);
    expect(err.stderr).toContain('cannot expand the YAML: Excessive alias count');
    expect(err.stderr).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('.inf, -.inf and .nan are reported as such, not as "got null"', () => {
    const text = 'venue: { mode: embedded-sim }\nbot: { strategies: [{ symbol: X, strategy: fake-spread, params: { spread_ticks: .inf, levels: .nan } }] }\nmonitoring: { port: -.inf }\n';
    const e = mmError(() => parseConfig(text, 'n.yaml', opts));
    expect(e.message).not.toContain('null');
    expect(e.message).toContain('n.yaml: monitoring.port: expected number, got -.inf');
    expect(e.message).toContain('n.yaml: bot.strategies[0].params.spread_ticks: expected number, got .inf (strategy fake-spread)');
    expect(e.message).toContain('n.yaml: bot.strategies[0].params.levels: expected number, got .nan (strategy fake-spread)');
  });

  it('schema problems and strategy-parameter problems come in one report', () => {
    const text = 'venue: { mode: embedded-sim }\nbot: { strategies: [{ symbol: X, strategy: fake-spread, params: { spread_ticks: 0 } }, { symbol: Y, strategy: fake-spread, params: { spred_ticks: 1 } }] }\nlogging: { level: loud }\n';
    const e = mmError(() => parseConfig(text, 'all.yaml', opts));
    const lines = e.message.split('\n').map((l) => l.trim());
    expect(lines[0]).toBe('4 problems in all.yaml:');
    expect(lines.slice(1).map((l) => l.replace(/: .*$/, ''))).toEqual(['all.yaml', 'all.yaml', 'all.yaml', 'all.yaml']);
    expect(lines.slice(1).map((l) => l.split(': ')[1])).toEqual(['logging.level', 'bot.strategies[0].params.spread_ticks', 'bot.strategies[1].params.spread_ticks', 'bot.strategies[1].params.spred_ticks']);
    // And when the schema passes, every entry's param problems still come together.
    const ok = 'venue: { mode: embedded-sim }\nbot: { strategies: [{ symbol: X, strategy: fake-spread, params: { spread_ticks: 0 } }, { symbol: Y, strategy: fake-spread, params: { spread_ticks: -1 } }] }\n';
    expect(mmError(() => parseConfig(ok, 'two.yaml', opts)).message.split('\n')[0]).toBe('2 problems in two.yaml:');
  });

  it('property: any text is a BotConfig or an MmError (config codes), never another exception', () => {
    const yamlish = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(fc.constantFrom('venue:', ' mode: embedded-sim', '&a', '*a', '<<: *a', '.inf', '.nan', '~', '!!binary', '- ', '{', '}', '[', ']', 'bot:', '  strategies:', '    - {symbol: X, strategy: fake-spread, params: {spread_ticks: 1}}', '\n', ': ', '"\\u0000"', '${X}', '0x10', '1e999'), { maxLength: 30 }).map((p) => p.join('')),
    );
    fc.assert(
      fc.property(yamlish, (text) => {
        try {
          parseConfig(text, 'p.yaml', opts);
        } catch (e) {
          expect(e).toBeInstanceOf(MmError);
          expect(['CONFIG_INVALID', 'CONFIG_ENV_MISSING', 'STRATEGY_INVALID']).toContain((e as MmError).code);
        }
      }),
      { numRuns: 500, seed: 24 },
    );
  });
});
