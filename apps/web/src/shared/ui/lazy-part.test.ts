import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { lazyPart } from './lazy-part';

// Without a DOM (vitest.config.ts) the server renderer shows what a first render paints; what
// the failure view and «Повторить» do in a browser is e2e/lazy-parts-offline.e2e.ts's.
function Greeting({ name }: { name: string }) {
  return createElement('p', null, `Привет, ${name}`);
}

describe('lazyPart', () => {
  it('paints the loader until its code is in, then the part with its props', async () => {
    const Part = lazyPart(async () => ({ default: Greeting }));
    expect(renderToStaticMarkup(createElement(Part, { name: 'Иван' }))).toContain('Загрузка…');
    await Part.preload();
    expect(renderToStaticMarkup(createElement(Part, { name: 'Иван' }))).toBe('<p>Привет, Иван</p>');
  });

  it('a load that failed is tried again by the next one', async () => {
    const load = vi
      .fn<() => Promise<{ default: typeof Greeting }>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ default: Greeting });
    const Part = lazyPart(load);
    await expect(Part.preload()).rejects.toThrow();
    await Part.preload();
    expect(renderToStaticMarkup(createElement(Part, { name: 'Анна' }))).toBe('<p>Привет, Анна</p>');
    expect(load).toHaveBeenCalledTimes(2);
  });
});
