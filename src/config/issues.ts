import type { z } from 'zod';
import { MmError } from '../core/errors.ts';
import { formatPath, showValue, valueAt, type ConfigPath } from './path.ts';
import { suggestKey, variantOwning } from './suggest.ts';

/** One problem found in a config file, located by path. */
export interface ConfigProblem {
  readonly path: string;
  readonly message: string;
  readonly value: unknown;
}

/**
 * Turns zod issues into problems naming the path and the offending value. `prefix` roots the paths;
 * `schema` (the one that produced the issues) lets unknown keys suggest the likely intended key.
 */
export function problemsFromZod(issues: readonly z.core.$ZodIssue[], raw: unknown, prefix: ConfigPath = [], schema?: z.ZodType): ConfigProblem[] {
  const out: ConfigProblem[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    const value = valueAt(raw, issue.path);
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const hint = schema ? suggestKey(schema, issue.path, key) : undefined;
        out.push({ path: formatPath([...path, key]), message: unknownKeyMessage(key, hint, schema, issue.path), value: valueAt(raw, [...issue.path, key]) });
      }
    } else if (issue.code === 'invalid_type') {
      const message = value === undefined ? `missing (expected ${issue.expected})` : `expected ${issue.expected}, got ${showValue(value)}`;
      out.push({ path: formatPath(path), message, value });
    } else {
      const message = value === undefined ? issue.message : `${issue.message}; got ${showValue(value)}`;
      out.push({ path: formatPath(path), message, value });
    }
  }
  return out;
}

/**
 * An unknown key's message. A key a union's other member knows is its own nearest match: "did you
 * mean "sim"?" on `venue.sim` under `mode: remote` named nothing, so the member is named instead.
 */
function unknownKeyMessage(key: string, hint: string | undefined, schema: z.ZodType | undefined, path: readonly PropertyKey[]): string {
  if (hint === undefined) return 'unknown key';
  if (hint !== key) return `unknown key (did you mean "${hint}"?)`;
  const owner = schema ? variantOwning(schema, path, key) : undefined;
  return owner ? `unknown key here (only with ${owner})` : 'unknown key here (another form of this section has it)';
}

/**
 * One MmError CONFIG_INVALID for every problem in a file: the message lists `file: path: what`
 * lines; `details` carries file, the first path and value, and all problems.
 */
export function configInvalid(file: string, problems: readonly ConfigProblem[]): MmError {
  const lines = problems.map((p) => `${file}: ${p.path}: ${p.message}`);
  const first = problems[0];
  const message = lines.length === 1 ? lines[0]! : `${lines.length} problems in ${file}:\n  ${lines.join('\n  ')}`;
  return new MmError('CONFIG_INVALID', message, {
    file,
    path: first?.path,
    value: first?.value,
    problems,
  });
}
