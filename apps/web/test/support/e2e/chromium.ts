/** Debian's Chromium and how it is started, for the browser tests and the bench alike. */
export const CHROMIUM_PATH = '/usr/bin/chromium';
/** playwright-core downloads no browser of its own; these keep Debian's quiet and offline. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];
