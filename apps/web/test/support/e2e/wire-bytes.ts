import type { Page } from 'playwright-core';

export type WireFile = { url: string; type: string; bytes: number; encoding: string };

/**
 * Every response the page receives from now on, with the bytes it took on the wire as Chromium's
 * network layer counted them (compressed body and headers; nothing for a file served from the
 * cache). Read the list once the page is idle. Used by the budget test and `npm run bench`.
 */
export async function watchWireBytes(page: Page): Promise<() => WireFile[]> {
  const cdp = await page.context().newCDPSession(page);
  const seen = new Map<string, Omit<WireFile, 'bytes'>>();
  const files: WireFile[] = [];
  cdp.on('Network.responseReceived', (event) => {
    const headers = event.response.headers;
    seen.set(event.requestId, {
      url: event.response.url,
      type: event.type ?? 'Other',
      encoding: headers['content-encoding'] ?? headers['Content-Encoding'] ?? 'identity',
    });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const response = seen.get(event.requestId);
    if (response) files.push({ ...response, bytes: event.encodedDataLength });
  });
  await cdp.send('Network.enable');
  return () => [...files];
}

/** Bytes of the files of one kind (`Script`, `XHR`, …), or of all of them. */
export function totalBytes(files: WireFile[], type?: string): number {
  return files
    .filter((file) => type === undefined || file.type === type)
    .reduce((sum, file) => sum + file.bytes, 0);
}
