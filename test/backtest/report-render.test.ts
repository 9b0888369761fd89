import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { needs } from '../setup/system-deps.ts';
import { runSample } from './golden-summary.ts';
import { launchChromium, pageProblems } from '../support/browser.ts';

/** Flags for a headless Chromium that touches nothing outside the page. */

/**
 * Runs in the page (a string: the project compiles without DOM types): rasterises the markout chart
 * on a canvas and counts the pixels of each line's colour in the plot area, below title and legend.
 */
const RASTERISE = `(async () => {
  const svg = document.querySelector('svg[aria-label^="Markout curve"]');
  const img = new Image();
  img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(new XMLSerializer().serializeToString(svg));
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = 960;
  canvas.height = 260;
  const g = canvas.getContext('2d');
  g.drawImage(img, 0, 0, 960, 260);
  const px = g.getImageData(0, 28, 960, 200).data;
  const near = (r, gg, b) => {
    let n = 0;
    for (let i = 0; i < px.length; i += 4) if (Math.abs(px[i] - r) < 40 && Math.abs(px[i + 1] - gg) < 40 && Math.abs(px[i + 2] - b) < 40) n++;
    return n;
  };
  return {
    all: near(0x1f, 0x6f, 0xeb),
    buys: near(0x2d, 0xa4, 0x4e),
    sells: near(0xcf, 0x22, 0x2e),
    lengths: [...svg.querySelectorAll('path[fill="none"]')].map((p) => p.getTotalLength()),
    labels: [...svg.querySelectorAll('text')].map((t) => t.textContent),
  };
})()`;

describe.skipIf(!needs('chromium'))('report.html in a real browser (headless Chromium)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mmbot-render-'));
  let browser: Browser | null = null;
  beforeAll(async () => {
    await runSample(dir, 'config/backtest.yaml'); // the venue's example (its PnL axis: -5 … 25)
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('renders every chart, and the markout curve draws its lines in their colours', async () => {
    const page = await browser!.newPage({ viewport: { width: 1100, height: 900 } });
    const problems = pageProblems(page);
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    const charts = await page.locator('svg').count();
    expect(charts).toBeGreaterThanOrEqual(4); // equity, markout curve, price and quotes, inventory
    const curve = page.locator('svg[aria-label^="Markout curve"]');
    const box = (await curve.boundingBox())!;
    expect(box.width).toBeGreaterThan(600);
    expect(box.height).toBeGreaterThan(120);
    const counts = (await page.evaluate(RASTERISE)) as { all: number; buys: number; sells: number; lengths: number[]; labels: string[] };
    expect(counts.lengths).toHaveLength(4);
    for (const l of counts.lengths) expect(l).toBeGreaterThan(500); // each line spans the 0–120 s axis
    expect(counts.all).toBeGreaterThan(200);
    expect(counts.buys).toBeGreaterThan(200);
    expect(counts.sells).toBeGreaterThan(200);
    expect(counts.labels).toEqual(expect.arrayContaining(['0s', '120s', 'all fills', 'buys', 'sells']));
    // The summary tables carry the new figures.
    const text = await page.locator('body').innerText();
    expect(text).toMatch(/markout 1 s \/ 10 s \/ 60 s/);
    expect(text).toMatch(/Sharpe \(one day, from per-minute PnL\)/);
    expect(problems).toEqual([]);
    expect(readFileSync(join(dir, 'report.html'), 'utf8')).not.toContain('<script');
  }, 60_000);

  it('lays the charts out first, labels axes with round numbers and gives every row a tooltip', async () => {
    const page = await browser!.newPage({ viewport: { width: 1100, height: 900 } });
    const problems = pageProblems(page);
    await page.goto(pathToFileURL(join(dir, 'report.html')).href);
    const layout = (await page.evaluate(`(() => {
      const top = (el) => el.getBoundingClientRect().top + window.scrollY;
      const svgs = [...document.querySelectorAll('svg')];
      const pnl = svgs.find((s) => s.getAttribute('aria-label').startsWith('Cumulative PnL'));
      return {
        charts: svgs.map((s) => s.getAttribute('aria-label').split(':')[0]),
        lastChartBottom: Math.max(...svgs.map((s) => s.getBoundingClientRect().bottom + window.scrollY)),
        firstTableTop: top(document.querySelector('table')),
        pnlYLabels: [...pnl.querySelectorAll('text[text-anchor="end"]')].map((t) => t.textContent),
        untitled: [...document.querySelectorAll('th')].filter((th) => !th.title).map((th) => th.textContent),
        sortinoTip: [...document.querySelectorAll('th')].find((th) => th.textContent.startsWith('Sortino')).title,
      };
    })()`)) as { charts: string[]; lastChartBottom: number; firstTableTop: number; pnlYLabels: string[]; untitled: string[]; sortinoTip: string };
    expect(layout.charts).toEqual(['Price', 'Inventory (contracts)', 'Cumulative PnL by source (USD)', 'Markout curve']);
    expect(layout.lastChartBottom).toBeLessThan(layout.firstTableTop);
    expect(layout.pnlYLabels).toEqual(['-5', '0', '5', '10', '15', '20', '25']);
    expect(layout.untitled).toEqual([]);
    expect(layout.sortinoTip).toMatch(/downside deviation/);
    expect(problems).toEqual([]);
  }, 60_000);
});
