import type { Device } from '@portal/contracts/auth';
import { UAParser } from 'ua-parser-js';

export type DeviceDescription = {
  /** 'Windows 10 Chrome', 'iOS 17.5 Mobile Safari'; 'Неизвестное устройство' when nothing is known. */
  title: string;
  /** The address to show after a bullet, or null: shown only with a detected device type. */
  ip: string | null;
};

/**
 * A row of the devices page: operating system name, its version, browser name, then the
 * IP address when a device type (mobile, tablet, …) is detected and an address is known.
 */
export function describeDevice(userAgent: string, ipAddress: string | null): DeviceDescription {
  const parsed = new UAParser(userAgent).getResult();
  const title = [parsed.os.name, parsed.os.version, parsed.browser.name]
    .filter((part) => part?.trim())
    .join(' ');
  const hasDeviceType = Boolean(parsed.device.type);
  return {
    title: title || 'Неизвестное устройство',
    ip: hasDeviceType && ipAddress ? ipAddress : null,
  };
}

/**
 * One line, as the confirmation dialog and the sign-out button repeat it, with the site the
 * session belongs to when the server names it ('Хостинг': signed in there through the portal).
 */
export function deviceLine({ title, ip }: DeviceDescription, site?: string): string {
  return [title, ip, site].filter(Boolean).join(' • ');
}

/** A row of the list: the browser, and where it is signed in, as the row and its dialog show it. */
export type DeviceRowTexts = {
  description: DeviceDescription;
  /**
   * The portal's sessions: the site the session lives on ('Личный кабинет', 'Хостинг' for one
   * handed over). A site's sign-in through the portal: 'Вход на сайт «Хостинг»', since «Выйти»
   * there signs out of that site only.
   */
  site: string | undefined;
  /** The whole row in one line (the dialog's text, the button's label). */
  line: string;
};

export function deviceRowTexts(device: Device): DeviceRowTexts {
  const description = describeDevice(device.userAgent, device.ipAddress);
  const site =
    device.kind === 'site' && device.site ? `Вход на сайт «${device.site}»` : device.site;
  return { description, site, line: deviceLine(description, site) };
}
