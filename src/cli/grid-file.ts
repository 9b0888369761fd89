import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { MmError } from '../core/errors.ts';
import type { GridAxis } from '../backtest/sweep.ts';
import { DEFAULT_OBJECTIVE, parseObjective, type Objective } from '../research/objective.ts';

/** A parsed grid file. */
export interface GridFile {
  readonly axes: readonly GridAxis[];
  readonly rankBy: Objective;
}

/**
 * Reads a grid file: `grid:` maps dotted config paths to lists of values; `rank_by:` an
 * objective (OBJECTIVES; default pnl_over_drawdown).
 * @throws MmError FILE_NOT_FOUND or CONFIG_INVALID naming the file and key.
 */
export function loadGrid(file: string): GridFile {
  let raw: unknown;
  try {
    raw = parse(readFileSync(file, 'utf8'));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code) throw new MmError('FILE_NOT_FOUND', `cannot read grid ${file}: ${code}`, { file });
    throw new MmError('CONFIG_INVALID', `${file}: not YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, { file });
  }
  const o = (raw ?? {}) as Record<string, unknown>;
  for (const k of Object.keys(o)) if (k !== 'grid' && k !== 'rank_by') throw new MmError('CONFIG_INVALID', `${file}: unknown key "${k}" (expected grid, rank_by)`, { file, path: k });
  const grid = o['grid'];
  if (typeof grid !== 'object' || grid === null || Array.isArray(grid) || Object.keys(grid).length === 0)
    throw new MmError('CONFIG_INVALID', `${file}: grid: expected a mapping of config paths to lists of values`, { file, path: 'grid' });
  const axes = Object.entries(grid as Record<string, unknown>).map(([path, values]) => {
    if (!Array.isArray(values) || values.length === 0) throw new MmError('CONFIG_INVALID', `${file}: grid.${path}: expected a non-empty list of values`, { file, path: `grid.${path}` });
    if (!/^[A-Za-z0-9_$-]+(\.[A-Za-z0-9_$-]+)*$/.test(path)) throw new MmError('CONFIG_INVALID', `${file}: grid.${path}: expected a dotted path like bot.strategies.0.params.size`, { file });
    return { path, values };
  });
  const rankBy = o['rank_by'] === undefined ? DEFAULT_OBJECTIVE : parseObjective(o['rank_by'], `${file}: rank_by`);
  return { axes, rankBy };
}
