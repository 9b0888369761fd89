import { LiveClock } from '../../core/clock.ts';
import { MmError } from '../../core/errors.ts';
import { loadConfig } from '../../config/index.ts';
import { buildRewardReport, formatRewardReport, isIsoDate } from '../../rewards/report.ts';
import { RestClient } from '../../client/rest-client.ts';
import { clientRewardSource } from '../../rewards/rest-source.ts';
import { fetchAllAccruals } from '../../rewards/fetch-all.ts';
import { isPayoutStatus, PAYOUT_STATUSES, type RewardQuery } from '../../rewards/types.ts';
import { flagInt, flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

const USAGE = `usage: mmbot rewards [--config <file> | --base-url <url> --api-key <key> --api-secret <secret>]
                     [--symbol <sym>] [--status <${PAYOUT_STATUSES.join('|')}>]
                     [--from YYYY-MM-DD] [--to YYYY-MM-DD] [--account-id <id>] [--json] [--rows <n>]

Reports the market-maker reward accruals of the account (every page of
GET /api/mmlp/v2/reward-accruals): the accruals, totals by payout status, the venue's summary and
a per-day trend. --from/--to are inclusive epoch days (UTC). A table is printed unless --json.

Connection: --config reads venue.base_url/api_key/api_secret/account_id from a remote-mode bot
config; otherwise --base-url/--api-key/--api-secret, falling back to the environment variables
MMBOT_BASE_URL, MMBOT_API_KEY, MMBOT_API_SECRET (and MMBOT_ACCOUNT_ID).

Exit codes: 0 ok, 1 venue or network error, 2 bad flags or config.`;

interface Connection {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly apiSecret: string;
  readonly accountId: string | undefined;
}

function connection(configPath: string | undefined, flags: { baseUrl?: string | undefined; apiKey?: string | undefined; apiSecret?: string | undefined; accountId?: string | undefined }, env: NodeJS.ProcessEnv): Connection {
  if (configPath !== undefined) {
    const cfg = loadConfig(configPath);
    if (cfg.venue.mode !== 'remote') {
      throw new MmError('USAGE', `${configPath}: venue.mode is "${cfg.venue.mode}": the embedded venue only lives inside \`mmbot run\`; pass --base-url/--api-key/--api-secret of a running venue instead`);
    }
    return { baseUrl: cfg.venue.base_url, apiKey: cfg.venue.api_key, apiSecret: cfg.venue.api_secret, accountId: flags.accountId ?? cfg.venue.account_id };
  }
  const baseUrl = flags.baseUrl ?? env['MMBOT_BASE_URL'];
  const apiKey = flags.apiKey ?? env['MMBOT_API_KEY'];
  const apiSecret = flags.apiSecret ?? env['MMBOT_API_SECRET'];
  const missing = [
    baseUrl ? null : '--base-url (or MMBOT_BASE_URL)',
    apiKey ? null : '--api-key (or MMBOT_API_KEY)',
    apiSecret ? null : '--api-secret (or MMBOT_API_SECRET)',
  ].filter((x) => x !== null);
  if (missing.length > 0) throw new MmError('USAGE', `missing connection settings: ${missing.join(', ')}; or pass --config <file>`);
  if (!/^https?:\/\/[^/]+/.test(baseUrl!)) throw new MmError('USAGE', `--base-url must be an http(s) URL, got "${baseUrl}"`);
  return { baseUrl: baseUrl!, apiKey: apiKey!, apiSecret: apiSecret!, accountId: flags.accountId ?? env['MMBOT_ACCOUNT_ID'] };
}

/** Parses the filter flags into a query. @throws MmError USAGE naming the bad flag. */
export function rewardQueryFromFlags(f: { symbol?: string | undefined; status?: string | undefined; from?: string | undefined; to?: string | undefined; accountId?: string | undefined }): RewardQuery {
  if (f.status !== undefined && !isPayoutStatus(f.status)) throw new MmError('USAGE', `--status must be one of ${PAYOUT_STATUSES.join(', ')}, got "${f.status}"`);
  if (f.from !== undefined && !isIsoDate(f.from)) throw new MmError('USAGE', `--from must be a date YYYY-MM-DD, got "${f.from}"`);
  if (f.to !== undefined && !isIsoDate(f.to)) throw new MmError('USAGE', `--to must be a date YYYY-MM-DD, got "${f.to}"`);
  if (f.from !== undefined && f.to !== undefined && f.from > f.to) throw new MmError('USAGE', `--from (${f.from}) is after --to (${f.to})`);
  if (f.symbol !== undefined && f.symbol.trim() === '') throw new MmError('USAGE', '--symbol must not be empty');
  return {
    ...(f.accountId !== undefined ? { accountId: f.accountId } : {}),
    ...(f.symbol !== undefined ? { symbol: f.symbol } : {}),
    ...(f.status !== undefined ? { status: f.status as RewardQuery['status'] & string } : {}),
    ...(f.from !== undefined ? { startDate: f.from } : {}),
    ...(f.to !== undefined ? { endDate: f.to } : {}),
  };
}

/** `mmbot rewards`: the reward-accruals report. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.rewards,
  usage: USAGE,
  async run(args) {
    const p = parseArgs(args, {
      valued: ['config', 'base-url', 'api-key', 'api-secret', 'account-id', 'symbol', 'status', 'from', 'to', 'rows'],
      boolean: ['json'],
    });
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]}"`);
    const query = rewardQueryFromFlags({ symbol: flagString(p, 'symbol'), status: flagString(p, 'status'), from: flagString(p, 'from'), to: flagString(p, 'to') });
    const rows = flagInt(p, 'rows', 1, 1_000_000) ?? 50;
    const conn = connection(
      flagString(p, 'config'),
      { baseUrl: flagString(p, 'base-url'), apiKey: flagString(p, 'api-key'), apiSecret: flagString(p, 'api-secret'), accountId: flagString(p, 'account-id') },
      process.env,
    );
    const q: RewardQuery = conn.accountId !== undefined ? { ...query, accountId: conn.accountId } : query;
    const rest = new RestClient({
      baseUrl: conn.baseUrl,
      clock: new LiveClock(),
      credentials: { apiKey: conn.apiKey, apiSecret: conn.apiSecret },
      maxRetries: 2,
      requestTimeoutMs: 10_000,
    });
    try {
      const ledger = await fetchAllAccruals(clientRewardSource(rest), q);
      const report = buildRewardReport(ledger, q);
      process.stdout.write(p.flags.has('json') ? `${JSON.stringify(report, null, 2)}\n` : `${formatRewardReport(report, rows)}\n`);
      return 0;
    } finally {
      await rest.close();
    }
  },
};
