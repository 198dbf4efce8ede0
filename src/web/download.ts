/** Hands text to the browser as a file download (an export), without leaving the page. */

const TYPES: Record<string, string> = {
  md: 'text/markdown;charset=utf-8',
  json: 'application/json;charset=utf-8',
  html: 'text/html;charset=utf-8',
};

export function downloadText(fileName: string, text: string): void {
  const extension = fileName.slice(fileName.lastIndexOf('.') + 1);
  const url = URL.createObjectURL(new Blob([text], { type: TYPES[extension] ?? 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
