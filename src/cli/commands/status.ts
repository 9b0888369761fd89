import { MmError } from '../../core/errors.ts';
import { flagNumber, flagString, parseArgs } from '../args.ts';
import { callApi, DEFAULT_CONSOLE_URL, TOKEN_ENV } from '../../app/control/client.ts';
import { formatStatusTable, type StatusState } from '../../app/control/status-table.ts';
import type { Command } from '../main.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

const usage = `usage: mmbot status [--url <url>] [--watch] [--interval <s>] [--json]

Shows a running daemon: per strategy symbol its state (active, paused, reducing...), the book's
touch, its best quotes, working orders, position and PnL; then totals, the rate budget and the last
alerts. Reads GET /api/v1/state of the daemon's monitoring server.

  --url <url>        the daemon's monitoring server (default ${DEFAULT_CONSOLE_URL}, the demo's)
  --watch            refresh the table in place until Ctrl-C
  --interval <s>     refresh period with --watch (default 1)
  --json             print the raw state as JSON (with --watch: one line per refresh)

The token (needed only when the daemon sets monitoring.control.reads_require_token) is read from
${TOKEN_ENV}. Exit codes: 0 shown, 1 no daemon answers or it refused.`;

/** `mmbot status`: a running daemon's state as a table. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.status,
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['url', 'interval'], boolean: ['watch', 'json'] });
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]!}"`);
    const url = flagString(p, 'url') ?? DEFAULT_CONSOLE_URL;
    const intervalS = flagNumber(p, 'interval') ?? 1;
    if (!(intervalS > 0)) throw new MmError('USAGE', `--interval must be > 0 seconds, got ${intervalS}`);
    const token = process.env[TOKEN_ENV] || undefined;
    const json = p.flags.has('json');
    const once = async (): Promise<string> => {
      const r = await callApi(url, 'GET', '/api/v1/state', token);
      if (r.status !== 200) throw new MmError('UNAUTHORIZED', `${url} answered ${r.status}: ${r.body.message ?? ''}`);
      return json ? JSON.stringify(r.body) : formatStatusTable(r.body as unknown as StatusState, url);
    };
    if (!p.flags.has('watch')) {
      process.stdout.write(`${await once()}\n`);
      return 0;
    }
    const tty = process.stdout.isTTY && !json;
    for (;;) {
      let text: string;
      try {
        text = await once();
      } catch (e) {
        text = `${new Date().toISOString()} ${e instanceof Error ? e.message : String(e)}`;
      }
      // In place: home the cursor and clear below, so the table does not scroll.
      process.stdout.write(tty ? `\x1b[H\x1b[2J${text}\n` : `${text}\n`);
      await new Promise((r) => setTimeout(r, intervalS * 1000));
    }
  },
};
