/**
 * Runs fuzz cases through the reference matcher and the production replay exchange and compares
 * their fills one for one (reference-fuzz.test.ts; `npm run bench:fidelity -- --fuzz N`).
 */
import fc from 'fast-check';
import { referenceMatch } from '../../../src/backtest/reference/reference-matcher.ts';
import type { RefFill, RefOptions } from '../../../src/backtest/reference/types.ts';
import { buildEvents, caseArb, KNOWN_OPEN_PATHS, type FuzzCase, type KnownOpenPath } from './fuzz-case.ts';
import { productionFills } from './replay-driver.ts';

/** One case's fills on both sides, and whether they agree fill for fill. */
export interface CaseResult {
  readonly reference: readonly RefFill[];
  readonly production: readonly RefFill[];
  readonly agree: boolean;
}

const key = (f: RefFill): string => `${f.tMs} #${f.ref} ${f.side} ${f.qty}@${f.priceTicks} ${f.source}`;

/** Replays one case both ways. */
export function runCase(c: FuzzCase): CaseResult {
  const events = buildEvents(c);
  const opts: RefOptions = { rule: c.rule, entryMs: c.entryMs, minOrderSize: 1 };
  const reference = referenceMatch(events, opts);
  const production = productionFills(events, opts);
  const agree = reference.length === production.length && reference.every((f, i) => key(f) === key(production[i]!));
  return { reference, production, agree };
}

/** The fills of a case side by side, for a failure message. */
export function describeCase(c: FuzzCase, r: CaseResult): string {
  return [`rule ${JSON.stringify(c.rule)}, entry ${c.entryMs} ms`, JSON.stringify(buildEvents(c)), `reference:  ${r.reference.map(key).join(' | ')}`, `production: ${r.production.map(key).join(' | ')}`].join('\n');
}

/** Runs `n` cases from `seed` and counts the disagreements; the first one is described. */
export function fuzz(n: number, seed: number, open: readonly KnownOpenPath[] = KNOWN_OPEN_PATHS): { readonly cases: number; readonly disagreements: number; readonly first: string | null } {
  let disagreements = 0;
  let first: string | null = null;
  const chunk = 1000;
  for (let done = 0; done < n; done += chunk) {
    for (const c of fc.sample(caseArb(open), { numRuns: Math.min(chunk, n - done), seed: seed + done })) {
      const r = runCase(c);
      if (r.agree) continue;
      disagreements++;
      first ??= describeCase(c, r);
    }
  }
  return { cases: n, disagreements, first };
}
