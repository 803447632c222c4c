import type { Page } from 'playwright-core';

/** The addresses the page's main frame showed while `run` ran: a page on the way is one. */
export async function framesVisited(page: Page, run: () => Promise<unknown>): Promise<string[]> {
  const urls: string[] = [];
  const record = (frame: { url(): string; parentFrame(): unknown }) => {
    if (frame.parentFrame() === null) urls.push(frame.url());
  };
  page.on('framenavigated', record);
  try {
    await run();
  } finally {
    page.off('framenavigated', record);
  }
  return urls;
}

/** The navigation requests the browser made while `run` ran, redirects included. */
export async function navigationsRequested(
  page: Page,
  run: () => Promise<unknown>,
): Promise<string[]> {
  const urls: string[] = [];
  const record = (request: { url(): string; isNavigationRequest(): boolean }) => {
    if (request.isNavigationRequest()) urls.push(request.url());
  };
  page.on('request', record);
  try {
    await run();
  } finally {
    page.off('request', record);
  }
  return urls;
}

/** What an echo upstream (reverse-proxy/test-support/upstream-fixture.ts) shows it received. */
export async function echoedRequest(
  page: Page,
): Promise<{ url?: string; headers?: Record<string, string> }> {
  return JSON.parse((await page.locator('body').innerText()) || '{}') as {
    url?: string;
    headers?: Record<string, string>;
  };
}
