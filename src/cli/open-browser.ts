/**
 * Opens a URL in the person's browser with the platform's opener (`open` on macOS, `xdg-open`
 * elsewhere), the URL passed as one argument, never through a shell. False when there is no opener or it
 * failed: the caller then prints the URL.
 */
import { spawn } from 'node:child_process';

/** How long the opener gets to fail before it is taken to have worked (xdg-open hands off and exits). */
const OPENER_WAIT_MS = 3_000;

export function openBrowser(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<boolean> {
  const opener = process.platform === 'darwin' ? 'open' : 'xdg-open';
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(opener, [url], { stdio: 'ignore', detached: true, env: { ...env } });
    } catch {
      resolve(false);
      return;
    }
    const timer = setTimeout(() => {
      child.unref();
      resolve(true);
    }, OPENER_WAIT_MS);
    child.once('error', () => {
      clearTimeout(timer);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code === 0);
    });
  });
}
