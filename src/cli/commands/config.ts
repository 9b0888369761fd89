import { writeFileSync } from 'node:fs';
import { configJsonSchema, loadConfig } from '../../config/index.ts';
import { MmError } from '../../core/errors.ts';
import { redactSecrets } from '../../obs/logger.ts';
import { flagString, parseArgs } from '../args.ts';
import type { Command } from '../main.ts';
import { plaintextSecretsPolicy } from '../plaintext-secrets.ts';
import { builtinDefinitions, builtinLookup } from '../../app/live/strategies.ts';
import { COMMAND_SUMMARIES } from '../command-summaries.ts';

const usage = `usage: mmbot config check <file> [--print] [--allow-plaintext-secrets]
       mmbot config schema [--out <file>]

  check    validate a bot config (secrets from the environment) and say what is wrong, where
           --print   also print the effective config (defaults applied, secrets redacted)
           secrets written in the file (not \${ENV}) are reported, and refused as \`run\` refuses
           them unless the file is mode 0600 or --allow-plaintext-secrets is given
  schema   print the JSON Schema of bot configs (for editors), or write it to --out`;

/** `mmbot config`: validate a config file, or emit the JSON Schema editors use. */
export const command: Command = {
  summary: COMMAND_SUMMARIES.config,
  usage,
  async run(args) {
    const [sub, ...rest] = args;
    if (sub === 'check') {
      const p = parseArgs(rest, { boolean: ['print', 'allow-plaintext-secrets'] });
      const file = p.positional[0];
      if (!file || p.positional.length > 1) throw new MmError('USAGE', 'config check needs exactly one file');
      const config = loadConfig(file, { env: process.env, strategies: await builtinLookup() });
      const secretsWarning = plaintextSecretsPolicy(config, p.flags.has('allow-plaintext-secrets'));
      if (secretsWarning !== null) process.stderr.write(`${secretsWarning}\n`);
      const strategies = config.bot.strategies.map((s) => `${s.id}`).join(', ');
      const backtest = config.backtest ? `; backtest section: ${config.backtest.data?.length ?? 0} recording(s)` : '';
      process.stdout.write(`${file}: ok (venue ${config.venue.mode}; strategies ${strategies}${backtest})\n`);
      if (p.flags.has('print')) process.stdout.write(`${JSON.stringify(redactSecrets(config), null, 2)}\n`);
      return 0;
    }
    if (sub === 'schema') {
      const p = parseArgs(rest, { valued: ['out'] });
      const text = `${JSON.stringify(configJsonSchema(await builtinDefinitions()), null, 2)}\n`;
      const out = flagString(p, 'out');
      if (out) writeFileSync(out, text);
      else process.stdout.write(text);
      return 0;
    }
    throw new MmError('USAGE', sub ? `unknown subcommand "${sub}"` : 'config needs a subcommand');
  },
};
