import type { Page } from 'playwright-core';

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
