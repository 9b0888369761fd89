import { fileSuppliedText, type ConfigEnv } from './env.ts';
import { formatPath } from './path.ts';

/** Where a config file may hold a secret: the venue's API credentials and the control token. */
const SECRET_PATHS: readonly (readonly string[])[] = [
  ['venue', 'api_key'],
  ['venue', 'api_secret'],
  ['monitoring', 'control', 'token'],
];

/** Shortest control token accepted (32 characters: `openssl rand -hex 16` and up). */
export const MIN_CONTROL_TOKEN_CHARS = 32;
/** Fewest distinct characters in a control token (`aaaa…`, `hunter2hunter2…` are refused). */
export const MIN_CONTROL_TOKEN_DISTINCT = 8;

/**
 * Paths of secrets whose loaded value the file itself supplies (any character of it: literal text,
 * a used `:-` fallback), from the parsed YAML and the env it is loaded with: the README's rule is
 * that secrets come from the environment. Own keys only: an inherited value is no config value.
 */
export function literalSecretPaths(raw: unknown, env: ConfigEnv): string[] {
  const out: string[] = [];
  for (const path of SECRET_PATHS) {
    let node: unknown = raw;
    for (const k of path) node = node !== null && typeof node === 'object' && Object.hasOwn(node, k) ? (node as Record<string, unknown>)[k] : undefined;
    if (typeof node === 'string' && fileSuppliedText(node, env) !== '') out.push(formatPath([...path]));
  }
  return out;
}

/**
 * Why a control token is too weak to guard trading actions, or null when it is acceptable (an
 * empty token is acceptable: it disables acting). Never quotes the token.
 */
export function weakTokenReason(token: string): string | null {
  if (token === '') return null;
  if (token.length < MIN_CONTROL_TOKEN_CHARS) return `too short (${token.length} characters, at least ${MIN_CONTROL_TOKEN_CHARS}): generate one with \`openssl rand -hex 32\``;
  const distinct = new Set(token).size;
  if (distinct < MIN_CONTROL_TOKEN_DISTINCT) return `too predictable (${distinct} distinct characters, at least ${MIN_CONTROL_TOKEN_DISTINCT}): generate one with \`openssl rand -hex 32\``;
  return null;
}
