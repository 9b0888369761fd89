import { MmError } from '../core/errors.ts';

/** Parsed command-line flags: `--name value`, `--flag` (true), repeatable lists and positional arguments. */
export interface ParsedArgs {
  readonly flags: ReadonlyMap<string, string | true>;
  /** Values of `repeated` flags, in order (each occurrence may also be comma-separated). */
  readonly lists: ReadonlyMap<string, readonly string[]>;
  readonly positional: readonly string[];
}

/**
 * Parses `args` against the flags a command knows. `valued` flags take the next argument (or
 * `--name=value`); `boolean` flags take none; `repeated` flags take a value each time they appear
 * (`--data a --data b,c` → [a, b, c]).
 * @throws MmError USAGE naming an unknown flag or a missing value.
 */
export function parseArgs(
  args: readonly string[],
  spec: { valued?: readonly string[]; boolean?: readonly string[]; repeated?: readonly string[] },
): ParsedArgs {
  const valued = new Set(spec.valued ?? []);
  const bools = new Set(spec.boolean ?? []);
  const repeated = new Set(spec.repeated ?? []);
  const flags = new Map<string, string | true>();
  const lists = new Map<string, string[]>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq < 0 ? undefined : eq);
    if (bools.has(name) && eq < 0) {
      flags.set(name, true);
    } else if (valued.has(name) || repeated.has(name)) {
      const value = eq >= 0 ? a.slice(eq + 1) : args[++i];
      if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new MmError('USAGE', `flag --${name} needs a value`);
      if (repeated.has(name)) lists.set(name, [...(lists.get(name) ?? []), ...value.split(',').filter((x) => x.length > 0)]);
      else flags.set(name, value);
    } else {
      throw new MmError('USAGE', `unknown flag --${name}`);
    }
  }
  return { flags, lists, positional };
}

/** Reads a valued flag as a string. */
export const flagString = (p: ParsedArgs, name: string): string | undefined => {
  const v = p.flags.get(name);
  return typeof v === 'string' ? v : undefined;
};

/**
 * Reads a valued flag as an integer in [min, max].
 * @throws MmError USAGE naming the flag and the bad value.
 */
export function flagInt(p: ParsedArgs, name: string, min: number, max: number): number | undefined {
  const v = flagString(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new MmError('USAGE', `--${name} must be an integer in [${min}, ${max}], got "${v}"`);
  return n;
}

/**
 * Reads a valued flag as a positive number (e.g. a duration in seconds).
 * @throws MmError USAGE naming the flag and the bad value.
 */
export function flagNumber(p: ParsedArgs, name: string): number | undefined {
  const v = flagString(p, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new MmError('USAGE', `--${name} must be a non-negative number, got "${v}"`);
  return n;
}
