import { MmError } from '../../core/errors.ts';
import { flagString, parseArgs } from '../args.ts';
import { callApi, DEFAULT_CONSOLE_URL, TOKEN_ENV } from '../../app/control/client.ts';
import type { Command } from '../main.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

const usage = `usage: mmbot ctl <action> [<strategy id>] [args] [--url <url>] [--json]

Steers a running daemon through its control API (needs the daemon's control token in ${TOKEN_ENV}).

  pause <id>                    pull the strategy's quotes and stop quoting
  resume <id>                   quote again (after pause, flatten or cancel-all)
  resume                        (no id) lift a kill switch that paused quoting (as reset-kill)
  set <id> <name>=<value>...    change parameters live; checked by the strategy's schema: a bad
                                value is refused with its path and reason and nothing changes
  flatten <id> [<symbol>]       halt the strategy's symbols and send reduce-only IOCs at the touch until flat
  cancel-all                    cancel every order and pause every strategy
  kill [<detail>]               trip the kill switch by hand: every quote pulled, the position kept
  reset-kill                    clear a tripped kill switch
  reload                        re-read the config file (as SIGHUP): strategy params and risk limits
                                apply live; venue, credentials or symbol changes are refused

  --url <url>     the daemon's monitoring server (default ${DEFAULT_CONSOLE_URL}, the demo's)
  --json          print the API's JSON reply

Values in set are JSON when they parse (2, 0.5, true, "x"), else strings.
Exit codes: 0 done, 1 refused (401 without the token, 400 bad value, 404 unknown id), 2 usage.`;

const WITH_ID = new Set(['pause', 'resume', 'set', 'flatten']);
// A Map, not an object literal: `ctl __proto__` or `ctl toString` must be an unknown action (usage,
// exit 2), not an inherited member that reaches the network as a path.
const GLOBAL: ReadonlyMap<string, string> = new Map([
  ['cancel-all', '/api/v1/cancel-all'],
  ['kill', '/api/v1/kill-switch/trip'],
  ['reset-kill', '/api/v1/kill-switch/reset'],
  ['reload', '/api/v1/reload'],
]);

/**
 * Parses `name=value` pairs (values as JSON when they parse).
 * @throws MmError USAGE for a pair without a name.
 */
export function parseAssignments(xs: readonly string[]): Record<string, unknown> {
  // No prototype: `__proto__=...` is then a plain (unknown) parameter the schema refuses by name,
  // not a prototype swap that silently drops the value.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const x of xs) {
    const eq = x.indexOf('=');
    if (eq <= 0) throw new MmError('USAGE', `expected <name>=<value>, got "${x}"`);
    const raw = x.slice(eq + 1);
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      v = raw;
    }
    out[x.slice(0, eq)] = v;
  }
  return out;
}

/** `mmbot ctl`: acts on a running daemon. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.ctl,
  usage,
  async run(args) {
    const p = parseArgs(args, { valued: ['url'], boolean: ['json'] });
    const [action, ...rest] = p.positional;
    if (!action) throw new MmError('USAGE', 'ctl needs an action');
    const url = flagString(p, 'url') ?? DEFAULT_CONSOLE_URL;
    const token = process.env[TOKEN_ENV] || undefined;
    let path: string;
    let body: unknown = {};
    if (action === 'resume' && rest.length === 0) {
      path = GLOBAL.get('reset-kill')!;
    } else if (WITH_ID.has(action)) {
      const id = rest[0];
      if (!id) throw new MmError('USAGE', `ctl ${action} needs a strategy id`);
      const base = `/api/v1/strategies/${encodeURIComponent(id)}`;
      if (action === 'set') {
        if (rest.length < 2) throw new MmError('USAGE', 'ctl set needs <id> <name>=<value>...');
        path = `${base}/params`;
        body = { params: parseAssignments(rest.slice(1)) };
      } else {
        if (rest.length > (action === 'flatten' ? 2 : 1)) throw new MmError('USAGE', `unexpected argument "${rest.at(-1)!}"`);
        path = `${base}/${action}`;
        if (action === 'flatten' && rest[1]) body = { symbol: rest[1] };
      }
    } else if (action === 'kill') {
      path = GLOBAL.get(action)!;
      if (rest.length > 0) body = { detail: rest.join(' ') };
    } else if (GLOBAL.has(action)) {
      if (rest.length > 0) throw new MmError('USAGE', `ctl ${action} takes no argument, got "${rest[0]!}"`);
      path = GLOBAL.get(action)!;
    } else throw new MmError('USAGE', `unknown action "${action}" (pause, resume, set, flatten, cancel-all, kill, reset-kill, reload)`);
    if (!token) process.stderr.write(`mmbot ctl: ${TOKEN_ENV} is not set: the daemon will refuse (401)\n`);
    const r = await callApi(url, 'POST', path, token, body);
    if (p.flags.has('json')) process.stdout.write(`${JSON.stringify(r.body)}\n`);
    else (r.body.ok ? process.stdout : process.stderr).write(`${r.body.ok ? '' : `refused (${r.status}): `}${r.body.message ?? ''}\n`);
    return r.body.ok ? 0 : 1;
  },
};
