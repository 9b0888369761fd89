import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseDocument, stringify } from 'yaml';
import { parseConfig, type BotConfig } from '../../config/index.ts';
import { MmError } from '../../core/errors.ts';
import { buildReport, fillsCsv, reportJson } from '../../backtest/report.ts';
import { reportHtml } from '../../backtest/report-html.ts';
import { executeRunSpec, type RunSpec } from '../../backtest/run-spec.ts';
import { checkJson, checkLines, executeCheckedRun } from '../../backtest/check/checked-run.ts';
import { formatRatio } from '../../backtest/report-stats.ts';
import { bps, feeLines, pct, usd } from '../../backtest/summary-format.ts';
import { stopLines } from '../../backtest/report-stops.ts';
import { backtestSectionSchema, toSettings, type BacktestSection } from '../../backtest/settings.ts';
import type { GridPoint } from '../../backtest/sweep.ts';
import { loadColumnar } from '../../record/columnar.ts';
import { flagNumber, flagString, parseArgs } from '../args.ts';
import { parityHtml, parityReport, parityTable, type ParityReport } from '../../backtest/parity.ts';
import { engineConfigs } from '../../app/live/engine-config.ts';
import { builtinLookup } from '../../app/live/strategies.ts';
import type { Command } from '../main.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';
import { runEnsembleCommand } from '../backtest-ensemble.ts';

import { defaultOutDir, loadBacktestSetup, replayCacheDir } from '../backtest-setup.ts';

// Where they lived first: sweeps, walk-forward, record and tests import them from here.
export { defaultOutDir, loadBacktestSetup, replayCacheDir, type BacktestSetup } from '../backtest-setup.ts';

const usage = `usage: mmbot backtest --config <file> [--data <file.jsonl.gz>]... [--out <dir>] [--quiet] [--no-cache] [--check]
       mmbot backtest --config <file> [--data <rec>] --ensemble <N> [--seed <s>] [--jobs <J>] [--vs <other-config>] [--backend embedded|redis://host:port [--queue <name>]] [--out <dir>]
       mmbot backtest --config <file> --parity <recording made by mmbot run> [--tolerance <fraction>] [--out <dir>]

Replays recordings through the same engine, strategy, order manager, execution adapter and risk
checks as the daemon, on a virtual clock, against a replay exchange (queue, latency, fee models).
  --config   bot config (the daemon's format) with a backtest: section
  --data     recording(s) to replay, in time order; overrides backtest.data (repeatable, or comma-separated)
  --out      report folder (default: a new folder under backtest.out_dir, ./backtests)
  --no-cache decode the recordings again instead of reusing the binary sidecar in the temp folder
  --parity   replay a recording the daemon made while it traded (recording: section) with the same
             strategy and compare, side by side, fills, volume, spread capture, inventory PnL, fees and
             markouts live vs replay (report.json "parity", parity.html, a printed table); exits 1
             when fills or spread capture diverge by more than --tolerance (default 0.2 = 20%)
  --check    hold the replay to the venue's invariants and list each violation (check.json); exits 1
             on any: maker fills at a price above what the prints traded at or through it, a fill
             before the order reached the matching engine or after its cancel did, our own orders
             crossing each other, a post-only order crossing
  --ensemble replay the data N times with seeded perturbations (backtest.ensemble: order latency,
             feed jitter, start time, queue model on level data, competitor reaction); writes
             ensemble.json (each figure's mean, sd, p5, p50, p95; P(net > 0); every draw) and
             ensemble.html; prints median [p5, p95] and P(net > 0). Exits 1 when a draw failed
  --seed     the ensemble's seed (default backtest.ensemble.seed): the same seed gives the same ensemble.json
  --jobs     draws in parallel on worker threads (default cores - 1; 1 = on this thread)
  --vs       a second config run on the same draws: paired differences and P(better)
  --backend  ensemble: embedded (default, worker threads) or redis://host:port (mmbot worker processes, as sweeps)
  --queue    ensemble on redis: the BullMQ queue the workers serve (default mmbot-research)
Writes report.json, fills.csv and report.html. Same inputs → byte-identical files.`;

/** `mmbot backtest`. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.backtest,
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['config', 'out', 'parity', 'tolerance', 'ensemble', 'seed', 'jobs', 'vs', 'backend', 'queue'], boolean: ['quiet', 'no-cache', 'check'], repeated: ['data'] });
    const ensemble = p.flags.has('ensemble');
    for (const f of ['seed', 'jobs', 'vs', 'backend', 'queue']) if (!ensemble && p.flags.has(f)) throw new MmError('USAGE', `--${f} belongs to --ensemble <N>`);
    if (ensemble && p.flags.has('parity')) throw new MmError('USAGE', '--parity and --ensemble are separate runs: drop one');
    if (ensemble && p.flags.has('check')) throw new MmError('USAGE', '--check holds one replay to the invariants; run it without --ensemble');
    const parityFile = flagString(p, 'parity');
    const tolerance = flagNumber(p, 'tolerance') ?? 0.2;
    if (!(tolerance >= 0)) throw new MmError('USAGE', `--tolerance must be a fraction >= 0, got ${tolerance}`);
    if (parityFile && (p.lists.get('data') ?? []).length > 0) throw new MmError('USAGE', '--parity takes the recording itself: drop --data');
    const data = parityFile ? [parityFile] : (p.lists.get('data') ?? []);
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]}"`);
    const file = flagString(p, 'config');
    if (!file) throw new MmError('USAGE', '--config is required');
    if (ensemble) return runEnsembleCommand(p, file, data);
    const setup = await loadBacktestSetup(file);
    const paths = data.length > 0 ? data.map((d) => resolve(d)) : setup.dataPaths;
    if (paths.length === 0) throw new MmError('USAGE', `no recording: pass --data or set backtest.data in ${file}`);
    const col = await loadColumnar(paths, p.flags.has('no-cache') ? {} : { cacheDir: replayCacheDir() });
    const checked = p.flags.has('check') ? await executeCheckedRun(setup.spec, col, setup.config.source.dir) : null;
    const run = checked ? checked.run : await executeRunSpec(setup.spec, col, setup.config.source.dir);
    const base = buildReport(run, { config: file, data: data.length > 0 ? data : (setup.section.data ?? []), strategies: setup.spec.strategies });
    let parity: ParityReport | null = null;
    if (parityFile) {
      if (!col.session.some((e) => e.type === 'execution'))
        throw new MmError('RECORDING_INVALID', `${parityFile} holds no execution reports (x lines): record with mmbot run (recording: section) to compare live and replay`, { file: parityFile });
      parity = parityReport(run, tolerance);
    }
    const report = parity ? { ...base, parity } : base;
    const outFlag = flagString(p, 'out');
    const out = outFlag ? resolve(outFlag) : defaultOutDir(resolve(setup.section.out_dir), run.startMs);
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'report.json'), reportJson(report));
    writeFileSync(join(out, 'fills.csv'), fillsCsv(run));
    writeFileSync(join(out, 'report.html'), reportHtml(run, report));
    if (parity) writeFileSync(join(out, 'parity.html'), parityHtml(parity));
    if (checked) writeFileSync(join(out, 'check.json'), checkJson(checked.check));
    if (!p.flags.has('quiet')) {
      const t = report.total;
      process.stdout.write(
        [
          ...stopLines(report),
          ...feeLines(report.fees),
          `replayed ${report.events.replayed} events (${report.window.duration_s} s of market) for ${report.strategies.map((s) => s.id).join(', ')}`,
          `net ${usd(t.pnl.net)} USD (spread ${usd(t.pnl.spread_capture)}, inventory ${usd(t.pnl.inventory)}, fees ${usd(t.pnl.fees)}, funding ${usd(t.pnl.funding)}); est. rewards ${usd(t.pnl.estimated_rewards)}`,
          `fills ${t.fills.count} (maker share ${pct(t.fills.maker_share)}; ${t.fills.cross_volume} of ${t.fills.volume} contracts from book crossings, not prints); markouts 1s/10s/60s ${['1s', '10s', '60s'].map((k) => bps(t.markouts_bps[k])).join(' / ')} bps; two-sided uptime ${pct(t.quoting.uptime_two_sided)}`,
          `Sharpe ${formatRatio(t.sharpe, t.pnl_periods)}${t.sharpe === null ? '' : ` (one day, from ${t.pnl_periods} one-minute PnL changes)`}; max drawdown ${usd(t.max_drawdown_usd)} USD over ${t.max_drawdown_duration_s.toFixed(1)} s`,
          `order latency ${report.venue.order_latency === 'recorded' ? `recorded (${report.venue.recorded_round_trips} round trips)` : 'modelled (backtest.order_latency)'}${report.venue.rate_limited_429 > 0 ? `; ${report.venue.rate_limited_429} requests answered 429` : ''}`,
          `report: ${out}/report.html`,
          '',
        ].join('\n'),
      );
    }
    // The violations are printed with --quiet too: they are the answer --check was asked for.
    if (checked) process.stdout.write(`${checkLines(checked.check).join('\n')}\n`);
    if (parity) {
      process.stdout.write(`\nlive vs replay (${parityFile}):\n${parityTable(parity)}\nparity: ${out}/parity.html\n`);
      return parity.within_tolerance && (!checked || checked.check.violations.length === 0) ? 0 : 1;
    }
    return checked && checked.check.violations.length > 0 ? 1 : 0;
  },
};
