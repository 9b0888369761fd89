import { MmError } from '../../core/errors.ts';
import { builtinStrategies, overlayKinds, paramDocs, type ParamDoc } from '../../strategy/index.ts';
import { parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { builtinDefinitions } from '../../app/live/strategies.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

const usage = `usage: mmbot strategies [--json]

Lists the built-in strategies and the quote overlays with their parameters: type, bounds, default
and description (units included), from their schemas. Use a strategy as
bot.strategies[].strategy with its params, and overlays as bot.strategies[].overlays: [{ kind, ... }].`;

/** What `--json` prints. */
interface Listing {
  readonly strategies: readonly { readonly name: string; readonly description: string; readonly params: readonly ParamDoc[] }[];
  readonly overlays: readonly { readonly kind: string; readonly description: string; readonly params: readonly ParamDoc[] }[];
}

function formatParams(params: readonly ParamDoc[]): string[] {
  const w = Math.max(4, ...params.map((p) => p.name.length));
  return params.map((p) => {
    const dflt = p.required ? 'required' : 'default' in p ? `default ${JSON.stringify(p.default)}` : 'optional';
    const kind = [p.type, ...p.constraints].join(' ');
    return `    ${p.name.padEnd(w)}  ${kind.padEnd(22)} ${dflt.padEnd(18)} ${p.description}`;
  });
}

/** `mmbot strategies`: the built-ins and overlays with their parameters. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.strategies,
  usage,
  async run(args) {
    const p = parseArgs(args, { boolean: ['json'] });
    if (p.positional.length > 0) throw new MmError('USAGE', `unexpected argument "${p.positional[0]}"`);
    const defs = await builtinDefinitions();
    const listing: Listing = {
      strategies: builtinStrategies.map((b) => {
        const def = defs.find((d) => d.name === b.name);
        return { name: b.name, description: def?.description ?? b.description, params: def ? paramDocs(def.params) : [] };
      }),
      overlays: overlayKinds.map((o) => ({ kind: o.kind, description: o.description, params: paramDocs(o.params, ['kind']) })),
    };
    if (p.flags.has('json')) {
      process.stdout.write(`${JSON.stringify(listing, null, 2)}\n`);
      return 0;
    }
    const lines: string[] = ['Strategies (bot.strategies[].strategy, .params):', ''];
    for (const s of listing.strategies) lines.push(`  ${s.name}: ${s.description}`, ...formatParams(s.params), '');
    lines.push('Overlays (bot.strategies[].overlays: [{ kind, ... }], applied in order):', '');
    for (const o of listing.overlays) lines.push(`  ${o.kind}: ${o.description}`, ...formatParams(o.params), '');
    process.stdout.write(`${lines.join('\n')}`);
    return 0;
  },
};
