/**
 * Which extensions may start this host. Chrome's `allowed_origins` in the host manifest is the first
 * gate; this repeats the check in the host itself, so a manifest edited by mistake (or a host started
 * by hand) cannot hand the browser-control socket to an unknown extension.
 */
import { DEV_EXTENSION_ID, type ExtensionHello } from '@chrome-relay/protocol';

/** Extra ids (e.g. a store build) come from this comma-separated variable, set by `install`. */
export const EXTENSION_IDS_ENV = 'CHROME_RELAY_EXTENSION_IDS';

// Chrome extension ids are 32 letters a–p (a base-16 digest spelled with a–p).
const ORIGIN = /^chrome-extension:\/\/([a-p]{32})\/$/;

export function allowedExtensionIds(env: NodeJS.ProcessEnv): Set<string> {
  const ids = new Set([DEV_EXTENSION_ID]);
  for (const id of (env[EXTENSION_IDS_ENV] ?? '').split(',')) {
    const trimmed = id.trim();
    if (trimmed) ids.add(trimmed);
  }
  return ids;
}

export type OriginCheck = { ok: true; id: string } | { ok: false; reason: string };

export function checkOrigin(origin: string | undefined, allowed: ReadonlySet<string>): OriginCheck {
  if (origin === undefined) {
    return { ok: false, reason: 'no caller origin argument: this host must be started by Chrome through native messaging' };
  }
  const id = ORIGIN.exec(origin)?.[1];
  if (id === undefined) {
    return { ok: false, reason: `caller origin ${JSON.stringify(origin)} is not of the form chrome-extension://<id>/` };
  }
  if (!allowed.has(id)) {
    return {
      ok: false,
      reason: `extension ${id} is not allowed; add it to ${EXTENSION_IDS_ENV} (comma-separated) or run \`chrome-relay install --extension-id ${id}\``,
    };
  }
  return { ok: true, id };
}

/**
 * The hello on stdin must name the extension Chrome started us for (argv). Chrome only lets that extension
 * write to our stdin, so a different id is a bug or a lie — either way the descriptor would publish the
 * wrong identity to every CLI, so the host refuses it instead of only logging it.
 */
export function checkHello(hello: ExtensionHello, startedFor: string): OriginCheck {
  if (hello.extension.id === startedFor) return { ok: true, id: startedFor };
  return { ok: false, reason: `the extension's hello names id ${JSON.stringify(hello.extension.id)}, but Chrome started this host for ${startedFor}` };
}
