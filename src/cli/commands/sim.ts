import { writeFileSync } from 'node:fs';
import { MmError } from '../../core/errors.ts';
import { defaultVenueConfig, loadVenueConfig, startVenue } from '../../sim/index.ts';
import { flagInt, flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';

const USAGE = `usage: mmbot sim [--config venue.yaml] [--port N] [--host 127.0.0.1] [--credentials-out file.json]

Starts the local venue (REST + order WS + market data) on loopback. Prints its address and a
ready-to-use API key and secret; --credentials-out writes them as JSON
{ "base_url", "ws_url", "api_key", "api_secret", "account_id" } for scripts.
Port 0 (the default) picks any free port. Stops cleanly on SIGINT/SIGTERM.`;

/** `mmbot sim`: run the local venue until interrupted. */
export const command: Command = {
  summary: 'run the local venue (matching, accounts, order entry, market data)',
  usage: USAGE,
  async run(args) {
    const p = parseArgs(args, { valued: ['config', 'port', 'host', 'credentials-out'] });
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]}"`);
    const cfgPath = flagString(p, 'config');
    const config = cfgPath ? loadVenueConfig(cfgPath) : defaultVenueConfig();
    const port = flagInt(p, 'port', 0, 65535) ?? 0;
    const host = flagString(p, 'host') ?? '127.0.0.1';
    const running = await startVenue({ port, host, config });
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
        writeFileSync(out, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
      } catch (e) {
        await running.stop();
        throw new MmError('FILE_NOT_FOUND', `cannot write credentials to ${out}: ${(e as Error).message}`, { path: out });
      }
    }
    process.stdout.write(
      [
        `local venue listening on ${running.baseUrl} (ws ${running.wsUrl})`,
        `api_key:    ${creds.api_key}`,
        `api_secret: ${creds.api_secret}`,
        `account_id: ${creds.account_id}`,
        ...(out ? [`credentials written to ${out}`] : []),
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
