/**
 * `npm run fuzz [-- --frames 100000 --seed 1 --only decoders,venue,daemon]`: feeds `--frames`
 * malformed, truncated and mutated frames (made from the venue fixtures and valid requests) to
 * each target: the wire decoders and mappers, the local venue's request handlers (order WS,
 * market-data WS, REST, over sockets; plus its request parser directly) and a running daemon's
 * sockets. Prints the counts, merges them into test/bench/results.json (`fuzz.*`) and exits 1 on
 * any crash, miscount or a daemon that stopped quoting.
 */
import { join } from 'node:path';
import { flagNumber, flagString, parseArgs } from '../../src/cli/args.ts';
import type { Metric } from '../bench/bench-kit.ts';
import { machineInfo, mergeResults } from '../bench/results-file.ts';
import { fixtureSeeds, MD_REQUEST_SEEDS, ORDER_REQUEST_SEEDS, sampleFrames } from './frames.ts';
import { fuzzDaemon, fuzzDecoders, fuzzVenueParsers, fuzzVenueSockets, type FuzzCounts } from './targets.ts';

const args = parseArgs(process.argv.slice(2), { valued: ['frames', 'seed', 'only'] });
const n = flagNumber(args, 'frames') ?? 100_000;
const seed = flagNumber(args, 'seed') ?? 1;
const only = new Set((flagString(args, 'only') ?? 'decoders,venue,daemon').split(','));
const metrics: Record<string, Metric> = {};
const problems: string[] = [];
const t0 = Date.now();
const machine = machineInfo();

function report(name: string, c: FuzzCounts, extra: Record<string, number> = {}): void {
  process.stdout.write(`${name.padEnd(16)} frames ${c.frames}  rejected ${c.rejected}  accepted ${c.accepted}  crashes ${c.crashes}${Object.entries(extra).map(([k, v]) => `  ${k} ${v}`).join('')}\n`);
  for (const s of c.crashSamples) process.stdout.write(`  crash: ${s}\n`);
  metrics[`fuzz.${name}.frames`] = { value: c.frames, unit: 'frames' };
  metrics[`fuzz.${name}.rejected`] = { value: c.rejected, unit: 'frames' };
  metrics[`fuzz.${name}.crashes`] = { value: c.crashes, unit: 'crashes', target: '0' };
  for (const [k, v] of Object.entries(extra)) metrics[`fuzz.${name}.${k}`] = { value: v, unit: 'count' };
  if (c.crashes > 0) problems.push(`${name}: ${c.crashes} crash(es)`);
}

const fixtures = fixtureSeeds();
const wsFixtures = fixtureSeeds((f) => f.startsWith('ws-'));
if (only.has('decoders')) {
  process.stderr.write(`decoders: ${n} frames ...\n`);
  report('decoders', fuzzDecoders(sampleFrames(fixtures, n, seed)));
  process.stderr.write(`venue parsers: ${n} frames ...\n`);
  report('venue_parser', fuzzVenueParsers(sampleFrames(MD_REQUEST_SEEDS, n, seed)));
}
if (only.has('venue')) {
  process.stderr.write(`venue sockets: ${n} frames ...\n`);
  const c = await fuzzVenueSockets(sampleFrames([...ORDER_REQUEST_SEEDS, ...MD_REQUEST_SEEDS, ...wsFixtures], n, seed + 1), { restEvery: 20 });
  report('venue_sockets', c, { order_ws: c.orderWsFrames, md_ws: c.mdWsFrames, rest: c.restBodies, reconnects: c.reconnects, healthy_after: c.healthyAfter ? 1 : 0 });
  if (!c.healthyAfter) problems.push('venue: not healthy after the fuzz');
}
if (only.has('daemon')) {
  process.stderr.write(`daemon sockets: ${n} frames ...\n`);
  const c = await fuzzDaemon(sampleFrames(wsFixtures, n, seed + 2));
  report('daemon', c, {
    injected_orders: c.injectedOrders,
    injected_md: c.injectedMd,
    counted_orders: c.countedOrders,
    counted_md: c.countedMd,
    kinds: c.kinds,
    kind_log_lines: c.badFrameLogLines,
    intents_after: c.intentsAfter,
    working_after: c.workingAfter,
  });
  if (c.countedOrders !== c.injectedOrders || c.countedMd !== c.injectedMd) problems.push('daemon: counted bad frames differ from those injected');
  if (c.badFrameLogLines !== c.kinds) problems.push(`daemon: ${c.badFrameLogLines} log lines for ${c.kinds} kinds`);
  if (c.intentsAfter === 0 || c.workingAfter === 0) problems.push('daemon: stopped quoting');
}
process.stdout.write(`fuzz done in ${((Date.now() - t0) / 1000).toFixed(0)} s${problems.length ? `; PROBLEMS: ${problems.join('; ')}` : '; no crashes, every bad frame counted'}\n`);
mergeResults(join(import.meta.dirname, '../bench/results.json'), 'fuzz', problems.length === 0 ? metrics : null, machine);
process.exit(problems.length === 0 ? 0 : 1);
