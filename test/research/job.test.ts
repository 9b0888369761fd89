import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultSettings } from '../../src/backtest/settings.ts';
import type { RunSpec } from '../../src/backtest/run-spec.ts';
import { canonicalJson, decodeJson, encodeJson } from '../../src/research/canonical.ts';
import { codeVersion, sourceTreeVersion } from '../../src/research/code-version.ts';
import { dataFingerprint } from '../../src/research/fingerprint.ts';
import { makeJob } from '../../src/research/job.ts';
import { prepareSearch } from '../../src/cli/commands/walk-forward.ts';
import { strategyModuleHashes } from '../../src/research/strategy-modules.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-research-job-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const spec = (halfSpreadTicks = 1): RunSpec => ({
  strategies: [{ id: 's', symbol: 'EURUSD-PERP', strategy: 'fixed-spread', params: { halfSpreadTicks, size: 100 } }],
  risk: { maxPosition: Infinity } as unknown as RunSpec['risk'],
  execution: {} as RunSpec['execution'],
  orderManager: {} as RunSpec['orderManager'],
  engineFees: null,
  settings: defaultSettings(),
  stopTimeoutMs: 5000,
});
const W = { id: 'w1', startMs: null, endMs: null };
const base = { index: 0, point: [['bot.strategies.0.params.halfSpreadTicks', 1]] as const, window: W, data: ['/d/a.jsonl.gz'], fingerprints: ['sha256:aa'], spec: spec(), codeVersion: 'v1' };

describe('research job ids', () => {
  it('are stable, ignore labels and key order, and change with config, params, window, data and code', () => {
    const id = makeJob(base).id;
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    expect(makeJob({ ...base, index: 7, window: { ...W, id: 'other' }, data: ['https://x/a.jsonl.gz'], baseDir: '/elsewhere' }).id).toBe(id);
    const reordered = { ...spec(), settings: Object.fromEntries(Object.entries(defaultSettings()).reverse()) as unknown as RunSpec['settings'] };
    expect(makeJob({ ...base, spec: reordered }).id).toBe(id);
    const changed = [
      makeJob({ ...base, spec: spec(2) }).id,
      makeJob({ ...base, spec: { ...spec(), settings: defaultSettings({ seed: 2 }) } }).id,
      makeJob({ ...base, point: [['bot.strategies.0.params.halfSpreadTicks', 2]] }).id,
      makeJob({ ...base, window: { id: 'w1', startMs: 1, endMs: null } }).id,
      makeJob({ ...base, fingerprints: ['sha256:bb'] }).id,
      makeJob({ ...base, codeVersion: 'v2' }).id,
    ];
    expect(new Set([id, ...changed]).size).toBe(changed.length + 1);
  });

  it('narrow the replay to the window, keeping the config bounds where the window is open', () => {
    const j = makeJob({ ...base, window: { id: 'w2', startMs: 1000, endMs: null }, spec: { ...spec(), settings: defaultSettings({ endMs: 9000 }) } });
    expect([j.spec.settings.startMs, j.spec.settings.endMs]).toEqual([1000, 9000]);
  });

  it('are the same in another process', () => {
    const script = join(dir, 'id.mts');
    writeFileSync(
      script,
      `import { makeJob } from ${JSON.stringify(join(ROOT, 'src/research/job.ts'))};\nimport { defaultSettings } from ${JSON.stringify(join(ROOT, 'src/backtest/settings.ts'))};\n` +
        `const spec = ${JSON.stringify({ ...spec(), risk: {}, settings: undefined })};\n` +
        `process.stdout.write(makeJob({ index: 3, point: [['p', 1]], window: { id: 'x', startMs: 5, endMs: 9 }, data: ['a'], fingerprints: ['sha256:aa'], spec: { ...spec, settings: defaultSettings() } }).id + ' ' + (await import(${JSON.stringify(join(ROOT, 'src/research/code-version.ts'))})).codeVersion());\n`,
    );
    const out = execFileSync(process.execPath, [join(ROOT, 'bin/run-ts.js'), script], { encoding: 'utf8' }).trim();
    const here = makeJob({ index: 0, point: [['p', 1]], window: { id: 'y', startMs: 5, endMs: 9 }, data: ['b'], fingerprints: ['sha256:aa'], spec: { ...spec(), risk: {} as RunSpec['risk'], settings: defaultSettings() } }).id;
    expect(out).toBe(`${here} ${codeVersion()}`);
  }, 30_000);

  it('canonical JSON sorts keys and keeps non-finite numbers; the job codec round-trips them', () => {
    expect(canonicalJson({ b: 1, a: [Infinity, { d: undefined, c: NaN }] })).toBe('{"a":["#num:Infinity",{"c":"#num:NaN"}],"b":1}');
    const j = makeJob(base);
    expect(decodeJson<typeof j>(encodeJson(j)).spec.risk).toEqual({ maxPosition: Infinity });
  });
});

describe('the planner', () => {
  it('hands each grid point its strategy module hashes (a strategy by path in the config)', async () => {
    const cfg = join(dir, 'by-path.yaml');
    const text = readFileSync(join(ROOT, 'config/backtest.yaml'), 'utf8')
      .replace('strategy: fixed-spread', `strategy: ${join(ROOT, 'strategies/fixed-spread/index.ts')}`)
      .replace(/- \.\.\/data\/sample\/eurusd-perp-local\.jsonl\.gz/, `- ${SAMPLE}`);
    writeFileSync(cfg, text);
    const prep = await prepareSearch(cfg, [[['bot.strategies.0.params.halfSpreadTicks', 1]]], [SAMPLE], dir);
    const job = prep.make(prep.points[0]!, 0, { id: 'w1', startMs: null, endMs: null });
    expect(Object.keys(job.modules)).toEqual([join(ROOT, 'strategies/fixed-spread/index.ts')]);
    expect(Object.values(job.modules)[0]).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('data fingerprints and code version', () => {
  it('hash content, not names; a changed file gets a new fingerprint', async () => {
    const a = join(dir, 'a.jsonl.gz');
    const b = join(dir, 'b.jsonl.gz');
    copyFileSync(SAMPLE, a);
    copyFileSync(SAMPLE, b);
    const fa = await dataFingerprint(a, dir);
    expect(fa).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(await dataFingerprint(b)).toBe(fa);
    writeFileSync(b, 'changed');
    utimesSync(b, new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    expect(await dataFingerprint(b, dir)).not.toBe(fa);
    await expect(dataFingerprint(join(dir, 'missing.gz'))).rejects.toMatchObject({ code: 'FILE_NOT_FOUND' });
  });

  it('names the code: package version plus a hash of src/ and the built-in strategies', () => {
    expect(codeVersion()).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{16}$/);
    expect(codeVersion()).toBe(codeVersion());
    expect(codeVersion()).toBe(sourceTreeVersion(ROOT));
    const tree = join(dir, 'tree');
    mkdirSync(join(tree, 'src'), { recursive: true });
    mkdirSync(join(tree, 'strategies', 'mine'), { recursive: true });
    writeFileSync(join(tree, 'package.json'), '{"version":"1.2.3"}');
    writeFileSync(join(tree, 'src', 'a.ts'), 'export const a = 1;');
    writeFileSync(join(tree, 'strategies', 'mine', 'index.ts'), 'export const k = 1;');
    const v1 = sourceTreeVersion(tree);
    expect(v1).toMatch(/^1\.2\.3\+/);
    writeFileSync(join(tree, 'strategies', 'mine', 'index.ts'), 'export const k = 2;');
    const v2 = sourceTreeVersion(tree);
    writeFileSync(join(tree, 'src', 'a.ts'), 'export const a = 2;');
    expect(new Set([v1, v2, sourceTreeVersion(tree)]).size).toBe(3);
  });

  it('a strategy loaded by path is part of the job id by content; built-ins are not listed', async () => {
    const file = join(dir, 'my-strategy.ts');
    writeFileSync(file, 'export default 1;');
    const byPath = (s: RunSpec): RunSpec => ({ ...s, strategies: s.strategies.map((x) => ({ ...x, strategy: './my-strategy.ts' })) });
    const jobIn = async (baseDir: string) => makeJob({ ...base, spec: byPath(spec()), baseDir, modules: await strategyModuleHashes(byPath(spec()), baseDir) });
    const a = await jobIn(dir);
    expect(await strategyModuleHashes(spec(), dir)).toEqual({});
    expect(makeJob(base).modules).toEqual({});
    expect(a.modules['./my-strategy.ts']).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(a.id).not.toBe(makeJob(base).id);
    // The same content elsewhere gives the same id; an edit gives another.
    const other = join(dir, 'elsewhere');
    mkdirSync(other, { recursive: true });
    copyFileSync(file, join(other, 'my-strategy.ts'));
    expect((await jobIn(other)).id).toBe(a.id);
    writeFileSync(file, 'export default 2;');
    utimesSync(file, new Date(2_000_000_000_000), new Date(2_000_000_000_000));
    expect((await jobIn(dir)).id).not.toBe(a.id);
    expect(await strategyModuleHashes(byPath(spec()), join(dir, 'missing'))).toEqual({ './my-strategy.ts': 'unreadable' });
  });

  it("a strategy module's local imports are hashed with it, transitively: editing a helper changes the job id", async () => {
    const tree = join(dir, 'graph');
    mkdirSync(join(tree, 'lib'), { recursive: true });
    const write = (f: string, text: string, mtimeS: number): void => {
      writeFileSync(join(tree, f), text);
      utimesSync(join(tree, f), mtimeS, mtimeS); // a distinct mtime: the per-file hash memo sees every edit
    };
    write('strat.ts', "import { edge } from './lib/edge.js';\nimport {\n  size,\n} from './lib/size';\nimport Decimal from 'decimal.js';\nexport default () => edge + size;\n", 1_000_000);
    write('lib/edge.ts', "export { k } from '../consts.ts';\nexport const edge = 1;\n", 1_000_000);
    write('lib/size.ts', "const m = await import('./more.ts');\nexport const size = 2;\n", 1_000_000);
    write('lib/more.ts', "import { edge } from './edge.ts'; // a cycle back\nexport default edge;\n", 1_000_000);
    write('consts.ts', 'export const k = 3;\n', 1_000_000);
    const { localImports, moduleGraphHash } = await import('../../src/research/module-graph.ts');
    expect(localImports(readFileSync(join(tree, 'strat.ts'), 'utf8'))).toEqual(['./lib/edge.js', './lib/size']);
    const byPath: RunSpec = { ...spec(), strategies: spec().strategies.map((x) => ({ ...x, strategy: './strat.ts' })) };
    const job = async () => makeJob({ ...base, spec: byPath, baseDir: tree, modules: await strategyModuleHashes(byPath, tree) });
    const a = await job();
    expect((await job()).id).toBe(a.id);
    // Every file of the graph matters, however deep: consts.ts through edge's re-export, more.ts through a dynamic import.
    const ids = new Set([a.id]);
    for (const [k, f] of ['consts.ts', 'lib/more.ts', 'lib/size.ts', 'lib/edge.ts'].entries()) {
      write(f, `${readFileSync(join(tree, f), 'utf8')}// edited\n`, 2_000_000 + k);
      ids.add((await job()).id);
    }
    expect(ids.size).toBe(5);
    // A file nothing imports does not; nor does a package import.
    const before = await moduleGraphHash(join(tree, 'strat.ts'));
    write('unrelated.ts', 'export const x = 1;\n', 3_000_000);
    expect(await moduleGraphHash(join(tree, 'strat.ts'))).toBe(before);
    // The same tree elsewhere hashes the same; a helper missing there hashes differently (a worker refuses).
    const copy = join(dir, 'graph-copy');
    mkdirSync(join(copy, 'lib'), { recursive: true });
    for (const f of ['strat.ts', 'consts.ts', 'lib/edge.ts', 'lib/size.ts', 'lib/more.ts']) copyFileSync(join(tree, f), join(copy, f));
    expect(await moduleGraphHash(join(copy, 'strat.ts'))).toBe(before);
    rmSync(join(copy, 'consts.ts'));
    expect(await moduleGraphHash(join(copy, 'strat.ts'))).not.toBe(before);
  });
});
