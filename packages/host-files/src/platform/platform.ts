/**
 * The platform this process runs on, or any other (tests): one implementation of the seam (seam.ts) per OS —
 * linux.ts, darwin.ts, win32.ts; the two Unixes share posix.ts. Callers ask `platformOf(os)` or `currentPlatform()`
 * and never branch on process.platform themselves.
 */
import { darwin } from './darwin.js';
import { linux } from './linux.js';
import { osOf, type OsName } from './os.js';
import type { Platform } from './seam.js';
import { win32 } from './win32.js';

const PLATFORMS: Readonly<Record<OsName, Platform>> = { linux, darwin, win32 };

export function platformOf(os: OsName): Platform {
  return PLATFORMS[os];
}

/** The platform this process runs on. */
export function currentPlatform(): Platform {
  return PLATFORMS[osOf(process.platform)];
}
