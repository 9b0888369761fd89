import { loadConfig } from '../../config/index.ts';
import { LiveClock } from '../../core/clock.ts';
import { MmError } from '../../core/errors.ts';
import { DEFAULT_EXECUTION_CONFIG, type RateBudget } from '../../execution/config.ts';
import { createLogger } from '../../obs/logger.ts';
import { flagInt, flagString, parseArgs } from '../args.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';
import { openVenue } from '../../app/live/venue-endpoint.ts';
import { builtinLookup } from '../../app/live/strategies.ts';
import type { Command } from '../main.ts';
import { plaintextSecretsPolicy } from '../plaintext-secrets.ts';
import { hostKind, type HostKind } from '../venue-check/host-kind.ts';
import { venueProbes } from '../venue-check/probes.ts';
import { VENUE_USER_BUDGET } from '../venue-check/rate-budget.ts';
import { formatOutcome, formatVerdict, runChecks } from '../venue-check/run-checks.ts';

const usage = `usage: mmbot venue check --config <file> [--place-test [--yes]] [--max-skew-ms <ms>] [--socket-timeout-ms <ms>]

Checks, before a first run, that the venue named by the config's venue section is reachable and that
the key can trade what the config trades. Each check prints ✓ (passed), ✗ (failed) or - (skipped
because a check it needs failed):

  rest host           /api/health and /orders/health answer
  authentication      the key and secret get a session token (a wrong key or secret fails here)
  permissions         the key's account (venue.account_id, else its first) can read and trade
  symbols             every configured symbol is listed, unexpired and trading
  clock skew          our clock is within --max-skew-ms of the venue's (default 1000)
  order socket        /orders/ws upgrades with the token and logs in
  market-data socket  /md/ws upgrades and delivers a book of the first symbol
  rate budget         execution.budgets send order requests no faster than the venue's per-user
                      budget (assumed burst 100, 10/s; an embedded venue's own knobs)
  place test          with --place-test: one post-only bid at the minimum size 5% under the market,
                      cancelled at once; refused on a production host unless --yes is given

  --socket-timeout-ms <ms>    deadline of each socket check (default 10000)
  --allow-plaintext-secrets   as for mmbot run

A host is production unless it is loopback or has a "sandbox" label. Exit codes: 0 all passed,
1 a check failed (the first failure is named last), 2 bad config or flags.`;

/** The budgets the daemon would run with (config's, else the default). */
function budgetsOf(config: ReturnType<typeof loadConfig>): readonly RateBudget[] {
  const b = config.execution.budgets;
  return b ? b.map((x) => ({ name: x.name, capacity: x.capacity, refillPerSec: x.refill_per_sec, costs: { ...x.costs } })) : DEFAULT_EXECUTION_CONFIG.budgets;
}

/** `mmbot venue check`: one command that says whether the configured venue is ready to trade on. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.venue,
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['config', 'max-skew-ms', 'socket-timeout-ms'], boolean: ['place-test', 'yes', 'allow-plaintext-secrets'] });
    const [sub, ...extra] = p.positional;
    if (sub !== 'check') throw new MmError('USAGE', sub ? `unknown subcommand "${sub}"` : 'venue needs a subcommand: check');
    if (extra.length > 0) throw new MmError('USAGE', `unexpected argument "${extra[0]!}"`);
    const file = flagString(p, 'config');
    if (!file) throw new MmError('USAGE', 'venue check needs --config <file>');
    const maxSkewMs = flagInt(p, 'max-skew-ms', 1, 3_600_000) ?? 1_000;
    const socketTimeoutMs = flagInt(p, 'socket-timeout-ms', 1, 600_000) ?? 10_000;
    const placeTest = p.flags.has('place-test');
    const config = loadConfig(file, { env: process.env, strategies: await builtinLookup() });
    const secretsWarning = plaintextSecretsPolicy(config, p.flags.has('allow-plaintext-secrets'));
    if (secretsWarning !== null) process.stderr.write(`${secretsWarning}\n`);
    const symbols = [...new Set(config.bot.strategies.flatMap((s) => s.symbols))];
    if (symbols.length === 0) throw new MmError('CONFIG_INVALID', `${file}: bot.strategies names no symbol to check`, { file, path: 'bot.strategies' });

    // Decided before anything is opened: a refused --place-test must not touch the venue at all.
    const kind: HostKind = config.venue.mode === 'remote' ? hostKind(config.venue.base_url) : 'loopback';
    if (placeTest && kind === 'production' && !p.flags.has('yes')) {
      const host = config.venue.mode === 'remote' ? new URL(config.venue.base_url).host : '';
      throw new MmError('USAGE', `--place-test on the production host ${host} would place a real order: add --yes to confirm (or check a sandbox host)`);
    }

    const endpoint = await openVenue(config, createLogger({ level: 'warn' }));
    // The embedded venue's limit is known exactly: its knobs (a venue YAML may change the default).
    const limit = endpoint.embedded?.venue.knobs.rateLimit;
    const venueBudget = limit === undefined ? VENUE_USER_BUDGET : limit.enabled ? { capacity: limit.burst, refillPerSec: limit.perSecond } : null;
    const probes = venueProbes({ endpoint, clock: new LiveClock(), symbols, budgets: budgetsOf(config), venueBudget, maxSkewMs, socketTimeoutMs, placeTest });
    process.stdout.write(`venue check: ${endpoint.baseUrl} (${kind} host, ${config.venue.mode}; ${symbols.join(', ')})\n`);
    // LiveClock's timers are unref'd (they must not keep a stopping daemon alive), so while a REST
    // retry waits out its backoff nothing else holds the event loop: Node would exit 13 mid-check.
    const keepAlive = setInterval(() => {}, 60_000);
    try {
      const report = await runChecks(probes.checks, (o) => process.stdout.write(`${formatOutcome(o)}\n`));
      const verdict = formatVerdict(report);
      if (report.firstFailure === null) {
        process.stdout.write(`${verdict}\n`);
        return 0;
      }
      process.stderr.write(`mmbot venue check: ${verdict}\n`);
      return 1;
    } finally {
      clearInterval(keepAlive);
      await probes.close();
      await endpoint.close();
    }
  },
};
