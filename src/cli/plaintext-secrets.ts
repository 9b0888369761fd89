import { statSync } from 'node:fs';
import type { BotConfig } from '../config/index.ts';
import { configInvalid } from '../config/index.ts';

/**
 * The policy on secrets written into a config file (not `${ENV}` references): refused while the
 * file is readable by group or others (mode & 077), unless `allow` (`--allow-plaintext-secrets`);
 * otherwise allowed with a warning. Returns the warning line, or null when the file holds none.
 * @throws MmError CONFIG_INVALID naming the paths and the file's mode (never the values).
 */
export function plaintextSecretsPolicy(config: BotConfig, allow: boolean): string | null {
  const paths = config.source.literalSecrets ?? [];
  if (paths.length === 0) return null;
  const file = config.source.file;
  const mode = statSync(file).mode & 0o777;
  const shared = (mode & 0o077) !== 0;
  const what = `${paths.join(', ')} ${paths.length === 1 ? 'is a secret' : 'are secrets'} written in the file (mode ${mode.toString(8).padStart(4, '0')})`;
  if (shared && !allow)
    throw configInvalid(
      file,
      paths.map((path) => ({
        path,
        message: `a secret written in a file others can read (mode ${mode.toString(8).padStart(4, '0')}): use \${ENV_VAR}, or chmod 600 the file, or pass --allow-plaintext-secrets`,
        value: '(redacted)',
      })),
    );
  return `WARNING: ${file}: ${what}; secrets belong in the environment (\${ENV_VAR})`;
}
