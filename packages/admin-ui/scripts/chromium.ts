/**
 * The Chromium of the browser tests and of `pnpm bench:ui` (docs/admin-ui.md, "Tests"): the one
 * `CHROMIUM_PATH` names, else the headless Chromium of `@sparticuz/chromium`, unpacked to the temp
 * folder on first use. Launched with plain flags, not the package's serverless ones (which turn
 * web security off); the background-networking flags keep it off this machine's closed network.
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--no-zygote',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}
