import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { leaderboardHtml, type LeaderboardPageOptions } from './leaderboard-html.ts';
import { leaderboardCsv, leaderboardJson, type Leaderboard } from './leaderboard.ts';

/** The files a leaderboard is written to. */
export interface LeaderboardFiles {
  readonly csv: string;
  readonly json: string;
  readonly html: string;
}

/** Writes leaderboard.csv, leaderboard.json and leaderboard.html into `dir` (created if missing). */
export function writeLeaderboard(dir: string, lb: Leaderboard, page: LeaderboardPageOptions, baseName = 'leaderboard'): LeaderboardFiles {
  mkdirSync(dir, { recursive: true });
  const files = { csv: join(dir, `${baseName}.csv`), json: join(dir, `${baseName}.json`), html: join(dir, `${baseName}.html`) };
  writeFileSync(files.csv, leaderboardCsv(lb));
  writeFileSync(files.json, leaderboardJson(lb));
  writeFileSync(files.html, leaderboardHtml(lb, page));
  return files;
}
