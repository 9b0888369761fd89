import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GridPoint } from '../../src/backtest/sweep.ts';
import { writeLeaderboard } from '../../src/research/leaderboard-files.ts';
import { buildLeaderboard } from '../../src/research/leaderboard.ts';
import { planFolds, runWalkForward, summarise } from '../../src/research/walk-forward.ts';
import { walkForwardHtml } from '../../src/research/walk-forward-report.ts';
import { needs } from '../setup/system-deps.ts';
import { launchChromium, pageProblems } from '../support/browser.ts';


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
    // A walk-forward over fake results: in-sample always beats out-of-sample, one fold loses out of sample.
    const span = { startMs: 0, endMs: 480_000 };
    const folds = planFolds(span, { trainMs: 120_000, testMs: 60_000, stepMs: 60_000, anchored: false });
    const wfPoints: GridPoint[] = [1, 2, 3].map((a) => [['p.a', a]]);
    const res = await runWalkForward(wfPoints, folds, 'net', async (pairs, phase) =>
      pairs.map(({ point, window }) => {
        const net = (point[0]![1] as number) * (phase === 'train' ? 2 : window.id === 'f2-test' ? -1 : 1);
        return { point, windowId: window.id, metrics: { net, netWithRewards: net, sharpe: 0, maxDrawdown: 1, fills: 1, markout60sBps: 0, error: null } };
      }),
    );
    writeFileSync(join(dir, 'walk-forward.html'), walkForwardHtml(res, summarise(res, 3), { objective: 'net', dataStartMs: 0, trainMs: 120_000, testMs: 60_000, stepMs: 60_000, anchored: false, points: 3 }));
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders the heat map in colour (gains green, losses red) and the ranked table', async () => {
    const page = await browser!.newPage({ viewport: { width: 1200, height: 900 } });
    const problems = pageProblems(page);
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

  it('renders the walk-forward page: paired IS/OOS bars per fold and the fold table', async () => {
    const page = await browser!.newPage({ viewport: { width: 1200, height: 900 } });
    const problems = pageProblems(page);
    await page.goto(pathToFileURL(join(dir, 'walk-forward.html')).href);
    const svg = page.locator('svg[aria-label^="In-sample vs out-of-sample"]');
    expect((await svg.boundingBox())!.width).toBeGreaterThan(600);
    expect(await svg.locator('rect.in-sample').count()).toBe(6);
    expect(await svg.locator('rect.out-of-sample').count()).toBe(6);
    const heights = (await svg.locator('rect.in-sample, rect.out-of-sample').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))) as number[];
    for (const h of heights) expect(h).toBeGreaterThan(5);
    expect(await page.locator('table.folds tr').count()).toBe(7);
    const equity = page.locator('svg[aria-label^="Cumulative out-of-sample net PnL"]');
    expect(await equity.locator('path[fill="none"]').count()).toBe(3); // hindsight, mean point, walk-forward
    expect(await page.locator('body').innerText()).toMatch(/walk-forward efficiency \(mean OOS \/ mean IS score\)/);
    expect(problems).toEqual([]);
  }, 60_000);
});
