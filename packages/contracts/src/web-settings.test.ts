import { describe, expect, it } from 'vitest';
import type { WebSettings } from './web-settings';
import { injectWebSettings } from './web-settings-html';

const settings: WebSettings = {
  apiBaseUrl: '',
  msApiBaseUrl: '',
  supportUrl: 'https://t.me/help',
  hostingUrl: 'https://hosting.example.com',
  launcherUrl: 'https://launcher.example.com',
  privacyUrl: 'https://hosting.example.com/privacy',
  brandName: '</script><script>alert(1)</script> «Рога»',
  isTelegramOffered: false,
  isYandexOffered: true,
};
const template = '<head><!--portal-config--></head><body><div id="root"></div></body>';
const element = /<script id="portal-config" type="application\/json">(.*?)<\/script>/;

describe('injectWebSettings', () => {
  it('puts the settings where the placeholder was, and nothing else changes', () => {
    const html = injectWebSettings(template, settings);
    expect(html).not.toContain('<!--portal-config-->');
    expect(html.replace(element, '<!--portal-config-->')).toBe(template);
    expect(JSON.parse(element.exec(html)?.[1] ?? '')).toEqual(settings);
  });

  it('writes no `<` of a value, so no value can close the element', () => {
    const html = injectWebSettings(template, settings);
    expect(html).not.toContain('</script><script>');
    expect(element.exec(html)?.[1]).not.toContain('<');
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });
});
