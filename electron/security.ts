/**
 * The shell's security rules in one place: the app origin, the one checked way to open an external
 * link, and the handlers that deny navigation, new windows, webviews and permission requests.
 */
import type { Session, Shell, WebContents } from 'electron';

export const APP_SCHEME = 'app';
export const APP_HOST = 'mnemo';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_URL = `${APP_ORIGIN}/index.html`;

/** True for a URL inside our own bundle (the only page that may talk to the engine). */
export function isAppUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return u.protocol === `${APP_SCHEME}:` && u.host === APP_HOST;
  } catch {
    return false;
  }
}

/** Only plain web links and mail leave the app; never file:, javascript:, custom schemes or credentials in the URL. */
export function isSafeExternalUrl(raw: string): boolean {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  if (u.protocol === 'https:' || u.protocol === 'http:') return u.hostname.length > 0;
  return u.protocol === 'mailto:';
}

/** The one function that opens anything outside the app. */
export async function openExternalChecked(shell: Pick<Shell, 'openExternal'>, raw: string): Promise<boolean> {
  if (!isSafeExternalUrl(raw)) return false;
  // The URL was just checked: http(s) with a host and no credentials, or mailto. Nothing else gets here.
  await shell.openExternal(raw); // eng-disable OPEN_EXTERNAL_JS_CHECK (reviewed: guarded by isSafeExternalUrl)
  return true;
}

/** Denies navigation away from the bundle, window.open (links go to the system browser), and webviews. */
export function hardenWebContents(contents: WebContents, shell: Pick<Shell, 'openExternal'>): void {
  contents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-redirect', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    void openExternalChecked(shell, url);
    return { action: 'deny' };
  });
}

/** No page in this app needs a permission (camera, notifications, geolocation…): deny them all. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler?.(() => false);
}
