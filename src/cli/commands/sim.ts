
import { listenError } from '../../app/port-in-use.ts';
import { MmError } from '../../core/errors.ts';
import { defaultVenueConfig, loadVenueConfig, parseVenueConfig, startVenue, type VenueConfig } from '../../sim/index.ts';
import { MARKET_PRESETS, runPresetReport, presetReportTable, type MarketPreset } from '../../sim/market/index.ts';
import { flagInt, flagNumber, flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { writePrivateFile } from '../private-file.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

const USAGE = `usage: mmbot sim [--config venue.yaml] [--preset <name>] [--port N] [--host 127.0.0.1] [--credentials-out file.json]
       mmbot sim --preset-report [--presets calm,normal,...] [--symbols A,B] [--minutes N] [--seed N] [--maker-fee 0.0002] [--json]

Starts the local venue (REST + order WS + market data) on loopback. Prints its address and a
ready-to-use API key and secret; --credentials-out writes them instead (stdout then names the
file, never the secret) as JSON
{ "base_url", "ws_url", "api_key", "api_secret", "account_id" } for scripts, mode 0600 (an existing
file is replaced, never left readable by others).
Port 0 (the default) picks any free port. Stops cleanly on SIGINT/SIGTERM.
  --preset         the synthetic market: ${MARKET_PRESETS.join(' | ')} (default normal; sets
                   market.preset over the venue YAML)
  --preset-report  runs each preset in-process on a virtual clock for --minutes of venue time
                   (default 30) with a naive quoter one tick either side of the mid, and prints
                   trades/min, book changes/s, spread, realised vol and the quoter's fills, PnL net
                   of fees and 1/10/60 s markouts (Markdown, or JSON with --json). Deterministic.
                   --bare leaves the quoter out (the synthetic market alone).`;

/** Parses a comma-separated preset list. */
function presetsOf(value: string | undefined): MarketPreset[] {
  const names = (value ?? MARKET_PRESETS.join(',')).split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  for (const n of names) if (!(MARKET_PRESETS as readonly string[]).includes(n)) throw new MmError('USAGE', `unknown preset "${n}" (expected ${MARKET_PRESETS.join(', ')})`);
  return names as MarketPreset[];
}

/** The venue config with `market.preset` set (the flag wins over the file). */
export function withPreset(config: VenueConfig, preset: string | undefined, source: string): VenueConfig {
  if (preset === undefined) return config;
  presetsOf(preset);
  const market = config.market && typeof config.market === 'object' ? (config.market as Record<string, unknown>) : {};
  return parseVenueConfig({ ...config, market: { ...market, preset } }, source);
}

/** `mmbot sim`: run the local venue until interrupted. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.sim,
  usage: USAGE,
  async run(args) {
    const p = parseArgs(args, { valued: ['config', 'port', 'host', 'credentials-out', 'preset', 'presets', 'symbols', 'minutes', 'seed', 'maker-fee'], boolean: ['preset-report', 'json', 'bare'] });
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]}"`);
    if (p.flags.has('preset-report')) return presetReport(p);
    const cfgPath = flagString(p, 'config');
    const config = withPreset(cfgPath ? loadVenueConfig(cfgPath) : defaultVenueConfig(), flagString(p, 'preset'), cfgPath ?? '--preset');
    const port = flagInt(p, 'port', 0, 65535) ?? 0;
    const host = flagString(p, 'host') ?? '127.0.0.1';
    const running = await startVenue({ port, host, config }).catch((e: unknown) => {
      // Without this a second venue on the same port died with a Node stack trace ("unexpected error").
      throw listenError(e, { code: 'USAGE', where: `--port ${port}`, host, port, likelyHolder: 'another venue or mmbot?' });
    });
    const creds = {
      base_url: running.baseUrl,
      ws_url: running.wsUrl,
      api_key: running.credentials.api_key,
      api_secret: running.credentials.api_secret,
      account_id: running.credentials.account_id,
    };
    const out = flagString(p, 'credentials-out');
    if (out) {
      try {
        writePrivateFile(out, `${JSON.stringify(creds, null, 2)}\n`);
      } catch (e) {
        await running.stop();
        throw new MmError('FILE_NOT_FOUND', `cannot write credentials to ${out}: ${(e as Error).message}`, { path: out });
      }
    }
    // With --credentials-out the secret stays in that 0600 file: stdout ends up in terminals,
    // CI logs and journald, readable by more people than the file.
    process.stdout.write(
      [
        `local venue listening on ${running.baseUrl} (ws ${running.wsUrl})`,
        ...(out ? [`credentials (api_key, api_secret, account_id) written to ${out} (mode 0600)`] : [`api_key:    ${creds.api_key}`, `api_secret: ${creds.api_secret}`, `account_id: ${creds.account_id}`]),
        'press Ctrl-C to stop',
        '',
      ].join('\n'),
    );
    await new Promise<void>((resolve) => {
      const done = (): void => {
        process.off('SIGINT', done);
        process.off('SIGTERM', done);
        resolve();
      };
      process.on('SIGINT', done);
      process.on('SIGTERM', done);
    });
    await running.stop();
    process.stdout.write('local venue stopped\n');
    return 0;
  },
};

/** `mmbot sim --preset-report`: the preset figures table. */
function presetReport(p: ReturnType<typeof parseArgs>): number {
  const presets = presetsOf(flagString(p, 'presets'));
  const symbols = (flagString(p, 'symbols') ?? 'EURUSD-PERP,XAU-PERP,SPY-PERP').split(',').map((s) => s.trim()).filter((s) => s.length > 0);
  const minutes = flagNumber(p, 'minutes') ?? 30;
  if (!(minutes > 0)) throw new MmError('USAGE', `flag --minutes: expected a positive number, got ${minutes}`);
  const seed = flagInt(p, 'seed', 0, 2 ** 31) ?? 1;
  const makerFee = flagString(p, 'maker-fee');
  const rows: { preset: MarketPreset; report: ReturnType<typeof runPresetReport>[number] }[] = [];
  for (const preset of presets) {
    let reports;
    try {
      reports = runPresetReport({ preset, symbols, minutes, seed, quoter: !p.flags.has('bare'), ...(makerFee !== undefined ? { makerFee } : {}) });
    } catch (e) {
      if (e instanceof RangeError) throw new MmError('USAGE', e.message);
      throw e;
    }
    for (const report of reports) rows.push({ preset, report });
  }
  if (p.flags.has('json')) process.stdout.write(`${JSON.stringify({ minutes, seed, rows }, null, 2)}\n`);
  else process.stdout.write(`${minutes} min of venue time per preset, seed ${seed}, quoter one tick either side of the mid (1 lot, cap 10 lots)\n\n${presetReportTable(rows)}\n`);
  return 0;
}
