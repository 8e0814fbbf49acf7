import type { Locator, Page, Route } from 'playwright-core';
import type { BrowserSession } from './browser';

/**
 * Every request the page makes for a script whose name matches fails, as on a connection that
 * drops (the browser's errors for it are allowed). Resolves to what makes them come again.
 */
export async function failScripts(
  browser: BrowserSession,
  page: Page,
  names: RegExp,
): Promise<() => Promise<void>> {
  const pattern = new RegExp(`/assets/${names.source}-[\\w-]{8}\\.js$`);
  const fail = (route: Route) => route.abort('connectionreset');
  await page.route(pattern, fail);
  browser.allowConsoleErrors(/ERR_CONNECTION_RESET/, /dynamically imported module/);
  return () => page.unroute(pattern, fail);
}

/** What a paste from a letter or a messenger delivers to the field: the clipboard's text. */
export async function paste(field: Locator, text: string) {
  await field.focus();
  await field.evaluate((input, pasted) => {
    const data = new DataTransfer();
    data.setData('text/plain', pasted);
    input.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }),
    );
  }, text);
}
