/**
 * Hands a file the app fetched (with the session's token, so a plain link would not do) to the
 * browser's downloads, under `fileName`.
 */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started; the address is let go on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The name a `Content-Disposition: attachment; filename="…"` answer gives, or `fallback`. */
export function attachmentName(disposition: unknown, fallback: string): string {
  const match = typeof disposition === 'string' ? /filename="([^"]+)"/.exec(disposition) : null;
  return match?.[1] ?? fallback;
}
