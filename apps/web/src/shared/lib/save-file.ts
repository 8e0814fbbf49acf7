/** Hands a file the app holds (fetched or made in the page) to the browser's downloads. */
export function saveFile(file: Blob, fileName: string): void {
  const url = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started; the address is let go on the next turn.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
