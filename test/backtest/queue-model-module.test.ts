import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadQueueModel, resolveQueueModel } from '../../src/backtest/queue-model-module.ts';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { MmError } from '../../src/core/errors.ts';
import { exchangeHarness } from './harness.ts';

const ROOT = join(import.meta.dirname, '../..');
const EXAMPLE = join(ROOT, 'examples/queue-model/ahead-share.ts');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-qmodule-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const failure = async (p: Promise<unknown>): Promise<MmError> => p.then(() => { throw new Error('expected an error'); }, (e: unknown) => e as MmError);

describe('queue models from a module path', () => {
  it('loads the example and replays with it: half of an unexplained 40 drop is ahead of us', async () => {
    const model = await loadQueueModel(EXAMPLE, { aheadShare: 0.5 });
    expect(model.name).toBe('ahead-share(0.5)');
    const h = exchangeHarness(model);
    h.book([[1000, 100]], [[1002, 100]], true);
    await h.place('buy', 1000, 50);
    h.book([[1000, 200]]); // 100 join behind us
    h.book([[1000, 160]]); // 40 canceled, no trades: 20 of them ahead of us → front 80
    expect(h.ex.open[0]![0]!.queue.front).toBe(80);
    h.run(1); // a later print (one at the frame's instant would net against the frame's depth move)
    h.trade(1000, 90, false);
    expect(h.filledQty()).toBe(10);
  });

  it('a config selects it by path relative to the config file, with its params', async () => {
    const text = readFileSync(join(ROOT, 'config/backtest.yaml'), 'utf8');
    const file = join(dir, 'bt.yaml');
    expect(text).toContain('queue_model: { kind: risk-averse }');
    writeFileSync(file, text.replace('queue_model: { kind: risk-averse }', `queue_model: { kind: module, module: ${join(ROOT, 'examples/queue-model')}/../queue-model/ahead-share.ts, params: { aheadShare: 0.25 } }`).replace('../data/sample/', `${join(ROOT, 'data/sample')}/`));
    const setup = await loadBacktestSetup(file);
    expect(setup.spec.settings.queueModel).toMatchObject({ kind: 'module', module: EXAMPLE, params: { aheadShare: 0.25 } });
    expect((await resolveQueueModel(setup.spec.settings.queueModel)).name).toBe('ahead-share(0.25)');
    const relative = join(dir, 'rel.yaml');
    writeFileSync(relative, readFileSync(file, 'utf8').replace(`${join(ROOT, 'examples/queue-model')}/../queue-model/ahead-share.ts`, 'sub/model.ts'));
    expect((await loadBacktestSetup(relative)).spec.settings.queueModel.module).toBe(join(dir, 'sub/model.ts'));
  });

  it('the built-ins stay selectable by name; bad modules and params are CONFIG_INVALID naming what is wrong', async () => {
    expect((await resolveQueueModel({ kind: 'log2', n: 2 })).name).toBe('log2');
    expect((await resolveQueueModel({ kind: 'power3', n: 4 })).name).toBe('power3(4)');
    expect((await resolveQueueModel({ kind: 'auto', n: 2 })).name).toBe('risk-averse');
    const bad = await failure(loadQueueModel(EXAMPLE, { aheadShare: 2 }));
    expect(bad.code).toBe('CONFIG_INVALID');
    expect(bad.message).toBe('backtest.queue_model.params for ahead-share: aheadShare: expected a number in [0, 1], got 2');
    writeFileSync(join(dir, 'not-a-model.ts'), 'export const x = 1;\n');
    expect((await failure(loadQueueModel(join(dir, 'not-a-model.ts')))).message).toMatch(/has no default export or `queueModel` export of the shape \{ name, create\(params\) \}/);
    expect((await failure(loadQueueModel(join(dir, 'missing.ts')))).message).toMatch(/missing\.ts failed to load/);
  });
});
