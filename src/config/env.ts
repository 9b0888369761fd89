import { MmError } from '../core/errors.ts';
import { formatPath, type ConfigPath } from './path.ts';

/** The environment secrets are read from (the CLI passes `process.env`). */
export type ConfigEnv = Readonly<Record<string, string | undefined>>;

// ${NAME} or ${NAME:-default}; `$${` is a literal `${`.
const REF = /\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Replaces `${NAME}` references in every string of a parsed YAML tree with values from `env`
 * (`${NAME:-fallback}` gives a default; `$${` escapes). Returns a new tree.
 * @throws MmError CONFIG_ENV_MISSING naming the file, the path and the variable.
 */
export function substituteEnv(tree: unknown, env: ConfigEnv, file: string): unknown {
  const walk = (node: unknown, path: PropertyKey[]): unknown => {
    if (typeof node === 'string') return substituteString(node, env, file, path);
    if (Array.isArray(node)) return node.map((v, i) => walk(v, [...path, i]));
    if (node !== null && typeof node === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) out[k] = walk(v, [...path, k]);
      return out;
    }
    return node;
  };
  return walk(tree, []);
}

function substituteString(s: string, env: ConfigEnv, file: string, path: ConfigPath): string {
  if (!s.includes('${')) return s;
  return s.replace(REF, (whole, name: string | undefined, fallback: string | undefined) => {
    if (whole === '$${') return '${';
    const value = env[name!];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    // An exported but empty variable (`export AX_API_KEY=$(cmd)` whose command failed) is named as
    // such: "not set" sent people looking for a missing export.
    const what = value === '' ? 'is set but empty' : 'is not set';
    throw new MmError('CONFIG_ENV_MISSING', `${file}: ${formatPath(path)}: environment variable ${name} ${what}`, {
      file,
      path: formatPath(path),
      variable: name,
    });
  });
}
