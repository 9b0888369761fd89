import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBacktestSetup } from '../../src/cli/commands/backtest.ts';
import { embeddedRunner } from '../../src/research/embedded-runner.ts';
import { dataFingerprint } from '../../src/research/fingerprint.ts';
import { makeJob, type JobResult, type ResearchJob } from '../../src/research/job.ts';
import { Journal, JOURNAL_FILE, readPlan, runJournaled, writePlan } from '../../src/research/journal.ts';
import type { JobRunner } from '../../src/research/runner.ts';
import { dataSpan, splitWindows } from '../../src/research/windows.ts';

const ROOT = resolve(import.meta.dirname, '../..');
const CONFIG = join(ROOT, 'config/backtest.yaml');
const SAMPLE = join(ROOT, 'data/sample/eurusd-perp-local.jsonl.gz');
const dir = mkdtempSync(join(tmpdir(), 'mmbot-research-emb-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let jobs: ResearchJob[] = [];
let full: Map<string, JobResult>;

beforeAll(async () => {
  const fp = await dataFingerprint(SAMPLE, dir);
  const windows = splitWindows(await dataSpan([SAMPLE], dir), 2);
  for (const [index, h] of [1, 3].entries()) {
    const point = [['bot.strategies.0.params.halfSpreadTicks', h]] as const;
    const setup = await loadBacktestSetup(CONFIG, point);
    for (const window of windows) jobs.push(makeJob({ index, point, window, data: [SAMPLE], fingerprints: [fp], spec: setup.spec, baseDir: setup.config.source.dir }));
  }
  const runner = embeddedRunner({ workers: 2, cacheDir: dir });
  const seen: number[] = [];
  full = await runner.run([...jobs, jobs[0]!], (_r, done, total) => seen.push(done * 100 + total));
  await runner.close();
  expect(seen).toEqual([104, 204, 304, 404]); // the duplicate runs once
}, 60_000);

describe('embedded runner', () => {
  it('runs every job on worker threads; windows replay their slice; results carry the job labels', () => {
    expect(full.size).toBe(4);
    for (const j of jobs) {
      const r = full.get(j.id)!;
      expect(r.row.error).toBeNull();
      expect([r.windowId, r.row.index, r.row.point]).toEqual([j.window.id, j.index, j.point]);
      expect(r.durationS).toBeGreaterThan(100);
      expect(r.durationS).toBeLessThan(300); // half of the 480 s sample
    }
    const w1 = jobs.filter((j) => j.window.id === 'w1').map((j) => full.get(j.id)!.row.fills);
    expect(w1[0]).toBeGreaterThan(w1[1]!); // a tighter quote trades more
  });

  it('reports a failing backtest as a final (journaled) error, not a transient one', async () => {
    const bad = makeJob({ ...jobs[0]!, spec: { ...jobs[0]!.spec, strategies: [{ ...jobs[0]!.spec.strategies[0]!, strategy: 'no-such-strategy' }] } });
    const runner = embeddedRunner({ workers: 1, cacheDir: null });
    const r = (await runner.run([bad])).get(bad.id)!;
    await runner.close();
    expect(r.row.error).toMatch(/no-such-strategy/);
    expect(r.transient).toBe(false);
  }, 30_000);
});

describe('sweep journal and resume', () => {
  it('a resumed sweep runs only the jobs the journal lacks and ends with the same results', async () => {
    const out = join(dir, 'sweep');
    writePlan(out, { format: 'mmbot-sweep', version: 1, codeVersion: jobs[0]!.codeVersion, meta: { note: 'x' }, jobs });
    expect(readPlan(out).jobs).toEqual(jobs);
    // The first coordinator journaled two results, then died mid-line.
    const first = new Journal(out);
    first.append(full.get(jobs[2]!.id)!);
    first.append(full.get(jobs[0]!.id)!);
    appendFileSync(join(out, JOURNAL_FILE), '{"jobId":"torn');
    const ran: string[] = [];
    const inner = embeddedRunner({ workers: 2, cacheDir: dir });
    const spy: JobRunner = { run: (js, cb) => (ran.push(...js.map((j) => j.id)), inner.run(js, cb)), close: () => inner.close() };
    const dones: number[] = [];
    const resumed = await runJournaled(spy, readPlan(out).jobs, new Journal(out), (_r, done) => dones.push(done));
    await spy.close();
    expect(ran.sort()).toEqual([jobs[1]!.id, jobs[3]!.id].sort());
    expect(dones).toEqual([3, 4]);
    expect(new Map([...resumed].map(([k, v]) => [k, v.row]))).toEqual(new Map([...full].map(([k, v]) => [k, v.row])));
    const lines = readFileSync(join(out, JOURNAL_FILE), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(4); // the torn line cut off
    expect(new Journal(out).done.size).toBe(4);
    // Nothing left: a second resume runs nothing.
    ran.length = 0;
    await runJournaled(spy, jobs, new Journal(out));
    expect(ran).toEqual([]);
  }, 60_000);

  it('rejects a folder without a plan', () => {
    expect(() => readPlan(join(dir, 'nope'))).toThrow(/cannot resume/);
  });

  it('a damaged line inside the journal is named with the way out (deleting it reruns its job)', () => {
    const out = join(dir, 'damaged');
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, JOURNAL_FILE), '{"jobId":"a","transient":false}\ngarbage\n{"jobId":"b","transient":false}\n');
    expect(() => new Journal(out)).toThrow(`${join(out, JOURNAL_FILE)}:2: not a result line (a damaged journal: delete that line and the job it held runs again)`);
  });
});

describe('job pool', () => {
  it('answers the job of a thread that died with a transient error and serves the next job on a new thread', async () => {
    const crash = join(dir, 'crash-strategy.mjs');
    writeFileSync(crash, 'process.exit(7);\nexport default {};\n');
    const bad = makeJob({ ...jobs[0]!, spec: { ...jobs[0]!.spec, strategies: [{ ...jobs[0]!.spec.strategies[0]!, strategy: crash }] } });
    const runner = embeddedRunner({ workers: 1, cacheDir: dir });
    const first = await runner.run([bad]);
    const again = await runner.run([jobs[1]!]);
    await runner.close();
    expect(first.get(bad.id)!.transient).toBe(true);
    expect(first.get(bad.id)!.row.error).toMatch(/worker thread died: exit code 7/);
    expect(again.get(jobs[1]!.id)!.row).toEqual(full.get(jobs[1]!.id)!.row);
  }, 30_000);
});
