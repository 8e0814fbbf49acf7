import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Locator, Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
/** Where the page fetches axe from: its own origin, so the portal's CSP (script-src 'self') allows it. */
const AXE_PATH = '/__e2e__/axe.min.js';

type AxeNode = { target: string[]; failureSummary?: string };
type AxeViolation = { id: string; impact: string | null; help: string; nodes: AxeNode[] };

/**
 * axe-core's serious and critical violations on the page as it is now, one line each with the
 * elements concerned. axe is injected with a script tag served from the page's own origin.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.route(`**${AXE_PATH}`, (route) =>
    route.fulfill({ contentType: 'application/javascript; charset=utf-8', body: AXE_SOURCE }),
  );
  await page.addScriptTag({ url: AXE_PATH });
  const violations = await page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
      }
    ).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      nodes: violation.nodes.slice(0, 5).map((node) => ({
        target: node.target,
        failureSummary: node.failureSummary,
      })),
    }));
  });
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.impact} ${violation.id} (${violation.help}): ${violation.nodes
          .map((node) => `${node.target.join(' ')} — ${node.failureSummary?.replaceAll('\n', ' ')}`)
          .join('; ')}`,
    );
}

/**
 * Waits until the page is still: no request in flight, no finite animation or transition running
 * (the theme fades; axe's contrast check must see the final colours).
 */
export async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== 'running' ||
          animation.effect?.getComputedTiming().iterations === Number.POSITIVE_INFINITY,
      ),
  );
}

/**
 * The page's horizontal scroll width, with the elements that stick out past the viewport's right
 * edge (for a readable failure).
 */
export async function horizontalOverflow(page: Page) {
  return page.evaluate(() => {
    const scrolling = document.scrollingElement ?? document.documentElement;
    const describe = (element: Element) => {
      const id = element.id ? `#${element.id}` : '';
      const classes = [...element.classList]
        .slice(0, 2)
        .map((name) => `.${name}`)
        .join('');
      const right = Math.round(element.getBoundingClientRect().right);
      return `${element.tagName.toLowerCase()}${id}${classes} (right ${right})`;
    };
    const sticking = [...document.querySelectorAll('body *')]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .slice(0, 8)
      .map(describe);
    return { scrollWidth: scrolling.scrollWidth, viewport: window.innerWidth, sticking };
  });
}

/** Whether the element has the keyboard focus. */
export function isFocused(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => element === document.activeElement);
}

/** Presses Tab until `target` has the focus; fails after `maxPresses`. */
export async function tabTo(page: Page, target: Locator, maxPresses = 40): Promise<number> {
  for (let presses = 1; presses <= maxPresses; presses++) {
    await page.keyboard.press('Tab');
    if (await isFocused(target)) return presses;
  }
  const focused = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 200));
  throw new Error(`${maxPresses} presses of Tab never reached the target; focus is on ${focused}`);
}
