import { chromium, type Browser, type Page } from 'playwright-core';
import { which } from '../setup/system-deps.ts';

const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'];

/** Starts the system's headless Chromium (Debian's package; tests guard with `needs('chromium')`). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: which('chromium')!, args: CHROMIUM_ARGS, timeout: 60_000 });
}

/**
 * Collects what should never happen on a self-contained report page: console errors, uncaught
 * page errors and any request that is not to a file: or data: URL (a CDN, a font, a tracker).
 * Attach before `page.goto`; the array fills as the page runs.
 */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('request', (r) => !r.url().startsWith('file:') && !r.url().startsWith('data:') && problems.push(`network request: ${r.url()}`));
  return problems;
}
