/**
 * `npm run bench:fidelity -- --fuzz N [--seed S]`: N random streams through the reference matcher
 * (src/backtest/reference/) and the production replay exchange; prints how many disagree fill for
 * fill, how long it took, and the first disagreement in full. The known open paths
 * (test/backtest/reference/fuzz-case.ts KNOWN_OPEN_PATHS) are left out of the streams.
 */
import { fuzz } from '../../backtest/reference/fuzz-run.ts';
import { KNOWN_OPEN_PATHS } from '../../backtest/reference/fuzz-case.ts';

/** Runs the fuzz and prints its figures; returns the number of disagreements. */
export function fuzzBench(cases: number, seed: number): number {
  const t0 = process.hrtime.bigint();
  const r = fuzz(cases, seed);
  const s = Number(process.hrtime.bigint() - t0) / 1e9;
  process.stdout.write(
    `fuzz: ${r.disagreements.toLocaleString('en-US')} disagreements in ${r.cases.toLocaleString('en-US')} cases (seed ${seed}) in ${s.toFixed(1)} s; ` +
      `known open paths left out: ${KNOWN_OPEN_PATHS.length > 0 ? KNOWN_OPEN_PATHS.join(', ') : 'none'}\n`,
  );
  if (r.first) process.stdout.write(`first disagreement:\n${r.first}\n`);
  return r.disagreements;
}
