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
      // defineProperty, not `out[k] =`: a key `__proto__` stays an own (unknown, refused) key
      // instead of becoming the object's prototype, whose members the schema would then read as
      // if they were written there (venue: { __proto__: { api_secret } } slipped past the
      // plain-text secrets check).
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) Object.defineProperty(out, k, { value: walk(v, [...path, k]), enumerable: true, writable: true, configurable: true });
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

/**
 * The part of a config string that the file itself supplies once loaded: its literal text, `$${`
 * escapes and the `:-` fallbacks that were used; only values read from `env` are left out. Empty
 * when the loaded value comes wholly from the environment (`${AX_API_SECRET}`), not empty for
 * `s3cret${X:-}` or `${X:-s3cret}` with X unset.
 */
export function fileSuppliedText(s: string, env: ConfigEnv): string {
  return s.replace(REF, (whole, name: string | undefined, fallback: string | undefined) => {
    if (whole === '$${') return '${';
    const value = env[name!];
    return value !== undefined && value !== '' ? '' : (fallback ?? '');
  });
}
