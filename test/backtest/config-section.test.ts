/**
 * One config file serves `mmbot run` and `mmbot backtest`: the daemon's strict schema accepts and
 * validates the `backtest:` section (src/domain/backtest-section.ts), `mmbot config check` passes
 * on config/backtest.yaml and reports a bad value inside `backtest:` with file, path and value.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { command } from '../../src/cli/commands/config.ts';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { engineConfigs } from '../../src/app/live/engine-config.ts';
import { builtinLookup } from '../../src/app/live/strategies.ts';
import { loadConfig } from '../../src/config/index.ts';
import { MmError } from '../../src/core/errors.ts';

const ROOT = join(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'config/backtest.yaml');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-bt-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function check(file: string): Promise<{ code: number; out: string }> {
  let out = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    return { code: await command.run(['check', file]), out };
  } finally {
    spy.mockRestore();
  }
}

/** config/backtest.yaml with one line replaced (the replaced text must exist). */
function variant(name: string, from: string, to: string): string {
  const text = readFileSync(SAMPLE, 'utf8');
  expect(text).toContain(from);
  const file = join(dir, name);
  // Keep the recording path valid from the temp folder.
  writeFileSync(file, text.replace(from, to).replace('../data/sample/', `${join(ROOT, 'data/sample')}/`));
  return file;
}

async function configError(fn: () => Promise<unknown>): Promise<MmError> {
  try {
    await fn();
  } catch (e) {
    if (e instanceof MmError) return e;
    throw e;
  }
  throw new Error('expected a CONFIG_INVALID error');
}

describe('the backtest: section in the bot config', () => {
  it('`mmbot config check config/backtest.yaml` passes and mentions the section', async () => {
    const r = await check(SAMPLE);
    expect(r.code).toBe(0);
    expect(r.out).toContain('backtest.yaml: ok (venue embedded-sim; strategies eurusd; backtest section: 1 recording(s))');
  });

  it('the daemon loads the same file (it ignores backtest:, its engine config is the same as without it)', async () => {
    const strategies = await builtinLookup();
    const withSection = loadConfig(SAMPLE, { env: {}, strategies });
    expect(withSection.backtest?.queue_model.kind).toBe('risk-averse');
    const full = readFileSync(SAMPLE, 'utf8');
    const stripped = join(dir, 'no-section.yaml');
    writeFileSync(stripped, full.slice(0, full.indexOf('\nbacktest:\n') + 1));
    const without = loadConfig(stripped, { env: {}, strategies });
    expect(without.backtest).toBeUndefined();
    expect(engineConfigs(withSection)).toEqual(engineConfigs(without));
  });

  it('a bad value inside backtest: is reported by config check with file, path and value', async () => {
    const file = variant('bad-depth.yaml', 'depth: auto ', 'depth: -3 ');
    const e = await configError(() => check(file));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toContain(`${file}: backtest.feed.depth:`);
    expect(e.message).toContain('got -3');
    expect(e.details).toMatchObject({ file, path: 'backtest.feed.depth', value: -3 });
  });

  it('an unknown key inside backtest: suggests the intended one', async () => {
    const file = variant('typo.yaml', 'queue_model: {', 'queue_modle: {');
    const e = await configError(() => check(file));
    expect(e.message).toContain('backtest.queue_modle: unknown key (did you mean "queue_model"?)');
  });

  it('mmbot backtest reports the same error (one validation path)', async () => {
    const file = variant('bad-latency.yaml', 'entry: 5 ', 'entry: { uniform: [9, 2] } ');
    const e = await configError(() => loadBacktestSetup(file));
    expect(e.code).toBe('CONFIG_INVALID');
    expect(e.message).toContain('backtest.order_latency.entry');
    expect(e.details).toMatchObject({ file });
  });

  it('docs/config.schema.json describes the section for editors', () => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'docs/config.schema.json'), 'utf8')) as {
      properties: { backtest: { properties: Record<string, { properties?: Record<string, unknown> }> } };
    };
    const bt = schema.properties.backtest.properties;
    expect(Object.keys(bt)).toEqual(expect.arrayContaining(['data', 'queue_model', 'order_latency', 'feed', 'fees', 'funding', 'rewards']));
    expect(Object.keys(bt['queue_model']!.properties ?? {})).toEqual(['kind', 'n', 'module', 'params', 'infer_hidden']);
  });
});
