import { expect, it } from 'vitest';
import { horizontalOverflow } from '../test/support/e2e/a11y-helpers';
import { SCREENS, setupScreensWorld } from '../test/support/e2e/a11y-screens';
import { MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { openAs } from '../test/support/e2e/wallet-helpers';

// Every screen is usable 375 px wide: nothing makes the page scroll sideways.

const world = setupScreensWorld();
const browser = setupBrowser();

it.each(SCREENS.map((screen) => ({ ...screen, label: screen.name })))(
  '$label fits 375 px without horizontal scroll',
  async (screen) => {
    const { baseUrl, customer } = world();
    const options = { viewport: MOBILE_VIEWPORT };
    const page = screen.isSignedIn
      ? await openAs(browser, customer, options)
      : await browser.newPage(options);
    browser.allowConsoleErrors(...(screen.expectedConsoleErrors ?? []));
    await screen.show(page, { baseUrl });
    const overflow = await horizontalOverflow(page);
    expect(overflow.viewport).toBe(MOBILE_VIEWPORT.width);
    expect(
      overflow.scrollWidth,
      `wider than the screen; sticking out: ${overflow.sticking.join(', ')}`,
    ).toBeLessThanOrEqual(MOBILE_VIEWPORT.width);
  },
);
