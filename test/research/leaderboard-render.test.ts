import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GridPoint } from '../../src/backtest/sweep.ts';
import { writeLeaderboard } from '../../src/research/leaderboard-files.ts';
import { buildLeaderboard } from '../../src/research/leaderboard.ts';
import { needs, which } from '../setup/system-deps.ts';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];

/** Runs in the page: each heat-map cell's text and computed background colour. */
const CELLS = `[...document.querySelectorAll('table.heat td')].map((td) => ({ text: td.textContent, bg: getComputedStyle(td).backgroundColor, w: td.getBoundingClientRect().width }))`;

describe.skipIf(!needs('chromium'))('leaderboard.html in a real browser (headless Chromium)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmbot-leaderboard-'));
  let browser: Browser | null = null;
  beforeAll(async () => {
    const points: GridPoint[] = [];
    for (const a of [1, 2, 3]) for (const b of ['risk-averse', 'power2']) for (const c of [5, 100]) points.push([['bot.strategies.0.params.halfSpreadTicks', a], ['backtest.queue_model.kind', b], ['backtest.order_latency.entry', c]]);
    // Net falls with the spread and is negative for the widest: the diverging scale shows both colours.
    const obs = points.flatMap((p, k) => ['w1', 'w2'].map((w) => ({ point: p, windowId: w, metrics: { net: 6 - 3 * (p[0]![1] as number) + (k % 2), netWithRewards: 0, sharpe: 1, maxDrawdown: 1 + (k % 3), fills: 100, markout60sBps: -0.1, error: null } })));
    writeLeaderboard(dir, buildLeaderboard(points, obs, 'pnl_over_drawdown'), { heatmap: ['bot.strategies.0.params.halfSpreadTicks', 'backtest.queue_model.kind'], notes: ['test page'] });
    browser = await chromium.launch({ executablePath: which('chromium')!, args: CHROMIUM_ARGS, timeout: 60_000 });
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the heat map in colour (gains green, losses red) and the ranked table', async () => {
    const page = await browser!.newPage({ viewport: { width: 1200, height: 900 } });
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('request', (r) => !r.url().startsWith('file:') && !r.url().startsWith('data:') && problems.push(`network request: ${r.url()}`));
    await page.goto(pathToFileURL(join(dir, 'leaderboard.html')).href);
    const cells = (await page.evaluate(CELLS)) as { text: string; bg: string; w: number }[];
    expect(cells).toHaveLength(6); // 3 spreads × 2 queue models
    const rgb = cells.map((c) => c.bg.match(/\d+/g)!.map(Number));
    expect(rgb.some(([r, g]) => g! > r! + 40)).toBe(true); // green: a gain
    expect(rgb.some(([r, g]) => r! > g! + 40)).toBe(true); // red: a loss
    for (const c of cells) expect(c.w).toBeGreaterThan(40);
    const text = await page.locator('body').innerText();
    expect(text).toMatch(/Other axes \(backtest\.order_latency\.entry\): each cell holds the best pnl_over_drawdown over them/);
    expect(await page.locator('table.ranked tr').count()).toBe(13); // header + 12 points
    expect(problems).toEqual([]);
    for (const f of ['leaderboard.html', 'leaderboard.csv', 'leaderboard.json']) expect(readFileSync(join(dir, f), 'utf8').length).toBeGreaterThan(100);
    expect(readFileSync(join(dir, 'leaderboard.html'), 'utf8')).not.toContain('<script');
  }, 60_000);
});
