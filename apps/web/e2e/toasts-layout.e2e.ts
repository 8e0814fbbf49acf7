import { describe, expect, it } from 'vitest';
import { signInByForm } from '../test/support/e2e/auth-helpers';
import { DESKTOP_VIEWPORT, MOBILE_VIEWPORT, setupBrowser } from '../test/support/e2e/browser';
import { setupPortalWithSmtp } from '../test/support/e2e/fixtures';

// A toast never covers the theme button: it starts below the frame's header.
const world = setupPortalWithSmtp();
const browser = setupBrowser();

describe.each([
  ['375 px', MOBILE_VIEWPORT],
  ['1280 px', DESKTOP_VIEWPORT],
] as const)('%s', (_width, viewport) => {
  it.each(['light', 'dark'] as const)(
    'the toast stays clear of the theme button (%s)',
    async (theme) => {
      const page = await browser.newPage({ viewport, colorScheme: theme });
      browser.allowConsoleErrors(/status of 401/);
      await page.goto(`${world().portal.baseUrl}/auth`);
      await signInByForm(page, 'nobody_here', 'Wrong-Pass-123');
      const toast = page.locator('[data-sonner-toast]').first();
      await toast.waitFor();
      const button = page.getByRole('button', { name: /^Включить (светлую|тёмную) тему$/ });
      const [toastBox, buttonBox] = [await toast.boundingBox(), await button.boundingBox()];
      expect(toastBox && buttonBox).toBeTruthy();
      const isApart =
        toastBox!.y >= buttonBox!.y + buttonBox!.height ||
        toastBox!.x >= buttonBox!.x + buttonBox!.width ||
        toastBox!.x + toastBox!.width <= buttonBox!.x;
      expect(isApart, JSON.stringify({ toastBox, buttonBox })).toBe(true);
      // And the button still takes a click while the toast shows.
      await button.click();
    },
  );
});
