import { describe, expect, it } from 'vitest';
import { seriousViolations } from '../test/support/e2e/a11y-helpers';
import { SCREENS, setupScreensWorld } from '../test/support/e2e/a11y-screens';
import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { openAs } from '../test/support/e2e/wallet-helpers';

// axe-core finds no serious or critical violation on any screen, in either theme.

const world = setupScreensWorld();
const browser = setupBrowser();

describe.each(['light', 'dark'] as const)('%s theme', (colorScheme) => {
  it.each(SCREENS.map((screen) => ({ ...screen, label: screen.name })))(
    '$label has no serious or critical axe violation',
    async (screen) => {
      const { baseUrl, customer } = world();
      const options = {
        colorScheme,
        viewport: screen.isMobileOnly ? MOBILE_VIEWPORT : DESKTOP_VIEWPORT,
      };
      const page = screen.isSignedIn
        ? await openAs(browser, customer, options)
        : await browser.newPage(options);
      browser.allowConsoleErrors(...(screen.expectedConsoleErrors ?? []));
      await screen.show(page, { baseUrl });
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe(colorScheme);
      expect(await seriousViolations(page)).toEqual([]);
    },
  );
});
