import type { Device } from '@portal/contracts/auth';
import { describe, expect, it } from 'vitest';
import { describeDevice, deviceLine, deviceRowTexts } from './describe-device';

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const CHROME_ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const FIREFOX_LINUX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';

describe('describeDevice', () => {
  it('names the OS, its version and the browser', () => {
    expect(describeDevice(CHROME_WINDOWS, '203.0.113.5').title).toBe('Windows 10 Chrome');
    expect(describeDevice(SAFARI_IPHONE, null).title).toBe('iOS 17.5 Mobile Safari');
    expect(describeDevice(CHROME_ANDROID, null).title).toBe('Android 14 Chrome');
  });

  it('leaves out what the user agent does not say', () => {
    expect(describeDevice(FIREFOX_LINUX, null).title).toBe('Linux Firefox');
    expect(describeDevice('', null).title).toBe('Неизвестное устройство');
    expect(describeDevice('curl/8.5.0', null).title).toBe('Неизвестное устройство');
  });

  it('shows the IP only with a detected device type and a known address', () => {
    expect(describeDevice(SAFARI_IPHONE, '198.51.100.7').ip).toBe('198.51.100.7');
    expect(describeDevice(CHROME_ANDROID, '198.51.100.8').ip).toBe('198.51.100.8');
    expect(describeDevice(SAFARI_IPHONE, null).ip).toBeNull();
    expect(describeDevice(SAFARI_IPHONE, '').ip).toBeNull();
    // A desktop browser reports no device type.
    expect(describeDevice(CHROME_WINDOWS, '203.0.113.5').ip).toBeNull();
  });

  it('writes one line with a bullet before the address', () => {
    expect(deviceLine(describeDevice(SAFARI_IPHONE, '198.51.100.7'))).toBe(
      'iOS 17.5 Mobile Safari • 198.51.100.7',
    );
    expect(deviceLine(describeDevice(CHROME_WINDOWS, '203.0.113.5'))).toBe('Windows 10 Chrome');
  });

  it('ends the line with the site the session belongs to, when the server names it', () => {
    expect(deviceLine(describeDevice('hosting-backend/1.0', '198.51.100.20'), 'Хостинг')).toBe(
      'Неизвестное устройство • Хостинг',
    );
    expect(deviceLine(describeDevice(SAFARI_IPHONE, '198.51.100.7'), 'Личный кабинет')).toBe(
      'iOS 17.5 Mobile Safari • 198.51.100.7 • Личный кабинет',
    );
  });
});

describe('deviceRowTexts', () => {
  const row = (fields: Partial<Device>): Device => ({
    id: 'd1',
    userAgent: CHROME_WINDOWS,
    ipAddress: '203.0.113.5',
    lastActivity: '2026-11-21T10:05:00.000Z',
    isCurrent: false,
    ...fields,
  });

  it("names a site's sign-in through the portal by the site, with the browser it was made in", () => {
    const texts = deviceRowTexts(row({ kind: 'site', site: 'Хостинг' }));
    expect(texts.site).toBe('Вход на сайт «Хостинг»');
    expect(texts.description.title).toBe('Windows 10 Chrome');
    expect(texts.line).toBe('Windows 10 Chrome • Вход на сайт «Хостинг»');
  });

  it("keeps a portal session's site as the server names it, and a row without one bare", () => {
    expect(deviceRowTexts(row({ kind: 'session', site: 'Личный кабинет' })).line).toBe(
      'Windows 10 Chrome • Личный кабинет',
    );
    // A session handed to a sibling site is a session, not a sign-in through the provider.
    expect(deviceRowTexts(row({ site: 'Хостинг' })).site).toBe('Хостинг');
    expect(deviceRowTexts(row({ userAgent: SAFARI_IPHONE })).line).toBe(
      'iOS 17.5 Mobile Safari • 203.0.113.5',
    );
  });
});
