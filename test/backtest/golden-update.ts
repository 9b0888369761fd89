/**
 * `npm run golden:update`: reruns the committed sample backtest, rewrites
 * test/backtest/golden-summary.json and the README paragraph quoting it. Run it when a change moves
 * the figures on purpose (fill accounting, latency, fees...) and commit both files with the change.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BacktestReport } from '../../src/backtest/report.ts';
import { currentReadmeBlock, GOLDEN_PATH, goldenSummary, README_PATH, readmeBlock, runSample } from './golden-summary.ts';

const dir = mkdtempSync(join(tmpdir(), 'mmbot-golden-update-'));
try {
  await runSample(dir);
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as BacktestReport;
  const summary = goldenSummary(report);
  const before = readFileSync(GOLDEN_PATH, { encoding: 'utf8', flag: 'a+' });
  writeFileSync(GOLDEN_PATH, `${JSON.stringify(summary, null, 2)}\n`);
  const readme = readFileSync(README_PATH, 'utf8');
  const block = currentReadmeBlock(readme);
  if (block === null) throw new Error(`README.md has no golden block (the markers of test/backtest/golden-summary.ts): add them where the sample figures are quoted`);
  writeFileSync(README_PATH, readme.replace(block, readmeBlock(summary)));
  process.stdout.write(`${before === `${JSON.stringify(summary, null, 2)}\n` ? 'golden figures unchanged' : 'golden figures updated'}: ${GOLDEN_PATH} and README.md\n${JSON.stringify(summary, null, 2)}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
