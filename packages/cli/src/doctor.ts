/**
 * `chrome-relay doctor`: a checklist a human can act on. Every failing line names its fix. Healthy means no
 * line failed; the process exits 0 only then.
 */
import { accessSync, constants, existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { HOST_NAME, TOOLS, VERSION, type ErrorCode } from '@chrome-relay/protocol';
import { listDescriptors } from './discovery.js';
import { callHost } from './hostClient.js';
import { allowedExtensionIds, linuxTargets, manifestPath, profileTarget, type InstallTarget } from './install.js';
import { defaultProfileDir } from './paths.js';

export type CheckStatus = 'ok' | 'fail' | 'skip';
export interface Check {
  name: string;
  status: CheckStatus;
  detail: string;
  fix?: string;
  /** The closed code this failure maps to, for the relayError block. */
  code?: ErrorCode;
}

function checkManifest(target: InstallTarget, label: string, ids: readonly string[]): Check {
  const file = manifestPath(target);
  const name = `host manifest (${label})`;
  if (!existsSync(file)) {
    return { name, status: 'fail', detail: `missing: ${file}`, fix: target.browser === 'profile' ? `chrome-relay install --user-data-dir ${dirname(target.dir)}` : `chrome-relay install --browser ${target.browser}`, code: 'extension_not_connected' };
  }
  try {
    const manifest = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; path?: unknown; allowed_origins?: unknown };
    const path = typeof manifest.path === 'string' ? manifest.path : '';
    if (manifest.name !== HOST_NAME) return { name, status: 'fail', detail: `${file} names "${String(manifest.name)}"`, fix: 'chrome-relay install', code: 'extension_not_connected' };
    try {
      accessSync(path, constants.X_OK);
    } catch {
      return { name, status: 'fail', detail: `${file} points at ${path || '(nothing)'}, which is not an executable`, fix: 'chrome-relay install', code: 'extension_not_connected' };
    }
    const origins = Array.isArray(manifest.allowed_origins) ? manifest.allowed_origins.map(String) : [];
    const missing = ids.filter((id) => !origins.includes(`chrome-extension://${id}/`));
    if (missing.length === ids.length) return { name, status: 'fail', detail: `${file} does not allow the chrome-relay extension`, fix: 'chrome-relay install', code: 'extension_not_connected' };
    return { name, status: 'ok', detail: `${file} → ${path}` };
  } catch (error) {
    return { name, status: 'fail', detail: `${file} is unreadable: ${(error as Error).message}`, fix: 'chrome-relay install', code: 'extension_not_connected' };
  }
}

function mode(path: string): number | null {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return null;
  }
}

export async function runDoctor(home: string, profile: string | undefined): Promise<Check[]> {
  const checks: Check[] = [];
  const ids = allowedExtensionIds();

  // 1. Manifests: the launch profile (if one exists) and the user-level browser dirs whose browser is present.
  const launchProfile = profile ?? defaultProfileDir(home);
  if (existsSync(launchProfile)) checks.push(checkManifest(profileTarget(launchProfile), `profile ${launchProfile}`, ids));
  for (const target of linuxTargets()) {
    if (existsSync(dirname(target.dir))) checks.push(checkManifest(target, target.browser, ids));
    else checks.push({ name: `host manifest (${target.browser})`, status: 'skip', detail: `${target.browser} is not installed for this user` });
  }

  // 2. Stale descriptors: clean them (a dead host's socket would only confuse clients).
  const all = listDescriptors(home);
  const stale = all.filter((d) => !d.alive);
  for (const d of stale) {
    rmSync(d.file, { force: true });
    rmSync(d.descriptor.socket, { force: true });
  }
  checks.push({ name: 'stale hosts', status: 'ok', detail: stale.length ? `cleaned ${stale.length} stale descriptor(s)` : 'none' });

  // 3. Host reachable, socket permissions, extension connected, versions.
  const live = all.filter((d) => d.alive && (!profile || d.descriptor.profile === profile));
  if (live.length === 0) {
    checks.push({ name: 'host reachable', status: 'fail', detail: `no running host under ${home}/run`, fix: 'start the browser with the chrome-relay extension loaded, or run `chrome-relay launch`', code: 'extension_not_connected' });
    checks.push({ name: 'extension connected', status: 'fail', detail: 'no host, so no extension connection', fix: 'chrome-relay launch', code: 'extension_not_connected' });
    return checks;
  }
  for (const { descriptor } of live) {
    const label = descriptor.profile ?? `pid ${descriptor.pid}`;
    const socketMode = mode(descriptor.socket);
    const dirMode = mode(dirname(descriptor.socket));
    if (socketMode !== 0o600 || dirMode !== 0o700) {
      checks.push({ name: `socket permissions (${label})`, status: 'fail', detail: `socket ${socketMode?.toString(8) ?? 'missing'}, dir ${dirMode?.toString(8) ?? 'missing'} (want 600/700)`, fix: 'restart the browser so the host recreates its socket', code: 'native_host_disconnected' });
      continue;
    }
    try {
      const response = await callHost('status', {}, { home, profile: descriptor.profile ?? undefined, timeoutMs: 3000 });
      if (!response.ok) throw new Error(response.error.message);
      const status = TOOLS.status.result.parse(response.result);
      checks.push({ name: `host reachable (${label})`, status: 'ok', detail: `pid ${status.host.pid}, socket ${status.host.socket} (600, dir 700)` });
      if (!status.extension) {
        checks.push({ name: `extension connected (${label})`, status: 'fail', detail: 'the host has not heard from the extension', fix: 'reload the extension in chrome://extensions', code: 'extension_not_connected' });
        continue;
      }
      checks.push({ name: `extension connected (${label})`, status: 'ok', detail: `id ${status.extension.id}, version ${status.extension.version}` });
      const versions = { cli: VERSION, host: status.host.version, extension: status.extension.version };
      const skew = new Set(Object.values(versions)).size > 1;
      checks.push(
        skew
          ? { name: 'versions', status: 'fail', detail: `cli ${versions.cli}, host ${versions.host}, extension ${versions.extension}`, fix: 'run `chrome-relay install` and reload the extension so all three match', code: 'unsupported_tool' }
          : { name: 'versions', status: 'ok', detail: `cli, host and extension all ${VERSION}` },
      );
    } catch (error) {
      checks.push({ name: `host reachable (${label})`, status: 'fail', detail: (error as Error).message, fix: 'restart the browser; if it persists run `chrome-relay install` again', code: 'native_host_disconnected' });
    }
  }
  return checks;
}

export function renderChecks(checks: readonly Check[]): string {
  const mark: Record<CheckStatus, string> = { ok: '✓', fail: '✗', skip: '-' };
  return checks
    .map((c) => `${mark[c.status]} ${c.name}: ${c.detail}${c.fix ? `\n    fix: ${c.fix}` : ''}`)
    .join('\n');
}
