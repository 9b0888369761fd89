/**
 * Writes docs/report.png: the committed sample's report.html in headless Chromium, from the top
 * (charts, then the results). `node bin/run-ts.js test/backtest/report-screenshot.ts [out.png]`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchChromium } from '../support/browser.ts';
import { ROOT, runSample } from './golden-summary.ts';

const out = resolve(process.argv[2] ?? join(ROOT, 'docs/report.png'));
const dir = mkdtempSync(join(tmpdir(), 'mmbot-report-shot-'));
try {
  await runSample(dir);
  const browser = await launchChromium();
  const page = await browser.newPage({ viewport: { width: 1050, height: 1500 } });
  await page.goto(pathToFileURL(join(dir, 'report.html')).href);
  await page.screenshot({ path: out, clip: { x: 0, y: 0, width: 1050, height: 1500 } });
  await browser.close();
  process.stdout.write(`${out}: ${Math.round(statSync(out).size / 1024)} KB\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
