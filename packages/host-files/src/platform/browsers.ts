/**
 * The Chromium-family browsers chrome-relay knows, as plain data with one column per OS: where each keeps
 * its profiles (whose existence means "this browser has run for this user"), where it looks for native
 * messaging hosts, and where its executable lives. The per-OS rules that turn a column into paths live in
 * linux.ts, darwin.ts and win32.ts.
 *
 * Windows needs one column only: Chromium derives everything from the vendor path — user data in
 * `%LOCALAPPDATA%\<vendor>\User Data`, hosts registered under `HKCU\Software\<vendor>\NativeMessagingHosts`,
 * the executable in `<Program Files or LocalAppData>\<vendor>\Application\<exe>`.
 */

export interface BrowserSpec {
  readonly name: string;
  readonly label: string;
  /** User-data-dir under the XDG config root; known install paths, tried first; command names on PATH. */
  readonly linux?: { readonly config: string; readonly paths?: readonly string[]; readonly commands: readonly string[] };
  /** User-data-dir under ~/Library/Application Support; the app bundle's name (its executable has the same name). */
  readonly darwin?: { readonly support: string; readonly app: string };
  /** The vendor path (see the header) and the executable's file name. */
  readonly win32?: { readonly vendor: string; readonly exe: string };
  /** Matches the browser executable's path (separators made '/'), to name the browser a running host belongs to. */
  readonly executable: RegExp;
}

/** In the order `install` lists them; unbranded builds (which still load unpacked extensions from the command line) first where it matters, in LAUNCH_ORDER. */
export const BROWSERS: readonly BrowserSpec[] = [
  {
    name: 'chrome',
    label: 'Google Chrome',
    linux: { config: 'google-chrome', paths: ['/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'], commands: ['google-chrome', 'google-chrome-stable'] },
    darwin: { support: 'Google/Chrome', app: 'Google Chrome' },
    win32: { vendor: 'Google\\Chrome', exe: 'chrome.exe' },
    executable: /google\/chrome\/|google-chrome(?!-)|google chrome(?! (?:beta|dev|canary|for testing))/i,
  },
  {
    name: 'chrome-beta',
    label: 'Google Chrome Beta',
    linux: { config: 'google-chrome-beta', commands: ['google-chrome-beta'] },
    darwin: { support: 'Google/Chrome Beta', app: 'Google Chrome Beta' },
    win32: { vendor: 'Google\\Chrome Beta', exe: 'chrome.exe' },
    executable: /chrome[- ]beta(?:\/|\.app| |$)/i,
  },
  {
    name: 'chrome-dev',
    label: 'Google Chrome Dev',
    linux: { config: 'google-chrome-unstable', commands: ['google-chrome-unstable'] },
    darwin: { support: 'Google/Chrome Dev', app: 'Google Chrome Dev' },
    win32: { vendor: 'Google\\Chrome Dev', exe: 'chrome.exe' },
    executable: /chrome-unstable\/|google[ /]chrome dev(?:\/|\.app| |$)/i,
  },
  {
    name: 'chrome-canary',
    label: 'Google Chrome Canary',
    linux: { config: 'google-chrome-canary', commands: ['google-chrome-canary'] },
    darwin: { support: 'Google/Chrome Canary', app: 'Google Chrome Canary' },
    win32: { vendor: 'Google\\Chrome SxS', exe: 'chrome.exe' },
    executable: /chrome-canary\/|chrome canary|chrome sxs\//i,
  },
  {
    name: 'chrome-for-testing',
    label: 'Google Chrome for Testing',
    linux: { config: 'google-chrome-for-testing', commands: [] },
    darwin: { support: 'Google/Chrome for Testing', app: 'Google Chrome for Testing' },
    win32: { vendor: 'Google\\Chrome for Testing', exe: 'chrome.exe' },
    executable: /chrome[- ]for[- ]testing/i,
  },
  {
    name: 'chromium',
    label: 'Chromium',
    // Debian: call the binary directly, the /usr/bin wrapper adds /etc/chromium.d flags.
    linux: { config: 'chromium', paths: ['/usr/lib/chromium/chromium', '/usr/bin/chromium', '/usr/bin/chromium-browser', '/snap/bin/chromium'], commands: ['chromium', 'chromium-browser'] },
    darwin: { support: 'Chromium', app: 'Chromium' },
    win32: { vendor: 'Chromium', exe: 'chrome.exe' },
    executable: /chromium/i,
  },
  {
    name: 'brave',
    label: 'Brave',
    linux: { config: 'BraveSoftware/Brave-Browser', commands: ['brave-browser', 'brave'] },
    darwin: { support: 'BraveSoftware/Brave-Browser', app: 'Brave Browser' },
    win32: { vendor: 'BraveSoftware\\Brave-Browser', exe: 'brave.exe' },
    executable: /brave/i,
  },
  {
    name: 'edge',
    label: 'Microsoft Edge',
    linux: { config: 'microsoft-edge', commands: ['microsoft-edge', 'microsoft-edge-stable'] },
    darwin: { support: 'Microsoft Edge', app: 'Microsoft Edge' },
    win32: { vendor: 'Microsoft\\Edge', exe: 'msedge.exe' },
    executable: /msedge|microsoft-edge|microsoft edge/i,
  },
  {
    name: 'vivaldi',
    label: 'Vivaldi',
    linux: { config: 'vivaldi', commands: ['vivaldi', 'vivaldi-stable'] },
    darwin: { support: 'Vivaldi', app: 'Vivaldi' },
    win32: { vendor: 'Vivaldi', exe: 'vivaldi.exe' },
    executable: /vivaldi/i,
  },
  {
    name: 'opera',
    label: 'Opera',
    linux: { config: 'opera', commands: ['opera'] },
    darwin: { support: 'com.operasoftware.Opera', app: 'Opera' },
    executable: /opera/i,
  },
  { name: 'arc', label: 'Arc', darwin: { support: 'Arc/User Data', app: 'Arc' }, executable: /arc\.app/i },
];

/**
 * Which browser `launch` starts when none is named: unbranded builds first, because Google Chrome (137 and
 * later) ignores --load-extension, which is how launch loads the extension.
 */
export const LAUNCH_ORDER: readonly string[] = ['chromium', 'chrome-for-testing', 'chrome'];

/** Name the browser from its executable path (e.g. /opt/brave.com/brave/brave → brave); null when unknown. */
export function browserOfExecutable(executable: string): string | null {
  const path = executable.replace(/\\/g, '/');
  return BROWSERS.find((spec) => spec.executable.test(path))?.name ?? null;
}
