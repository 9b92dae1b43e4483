/**
 * `chrome-relay doctor` for an agent whose browser is elsewhere (CHROME_RELAY_ENDPOINT, --endpoint): nothing of the
 * browser's is on this machine, so instead of the install checks it checks the way there — the link opens, the
 * bridge finds a host (`status`), the extension answers (`ping`), the versions agree — each failing line with its fix.
 */
import { ERROR_TABLE, isReasonedCode, PROTOCOL_VERSION, reasonInfo, reasonsOf, RelayError, TOOLS, VERSION, type ClientResponse } from '@chrome-relay/protocol';
import { versionCheck, type Check, type DoctorReport } from '../doctor.js';
import type { Endpoint } from './endpoint.js';
import { callEndpoint } from './linkClient.js';

export interface EndpointDoctorOptions {
  home: string;
  endpoint: Endpoint;
  profile?: string | undefined;
  /** Deadline of each call through the link (the first one may start a link holder). */
  timeoutMs?: number;
}

/** A failed call as a check: its code and reason, and the reason's move as the fix (reasons.ts), else the code's. */
function failed(name: string, error: unknown, tool: string): Check {
  const relay = RelayError.from(error, tool, 'connect');
  const reason = typeof relay.details.reason === 'string' ? relay.details.reason : undefined;
  const fix = reason !== undefined && isReasonedCode(relay.code) && reasonsOf(relay.code).includes(reason as never) ? reasonInfo(relay.code, reason as never).move : ERROR_TABLE[relay.code].move;
  return { name, status: 'fail', detail: `${relay.code}: ${relay.message}`, fix, code: relay.code, ...(reason === undefined ? {} : { reason }) };
}

export async function runEndpointDoctor(options: EndpointDoctorOptions): Promise<DoctorReport> {
  const { endpoint } = options;
  const timeoutMs = options.timeoutMs ?? 15_000;
  const call = (tool: string, params: Record<string, unknown>): Promise<ClientResponse> => callEndpoint(endpoint, options.home, tool, params, timeoutMs, { profile: options.profile });
  const checks: Check[] = [{ name: 'endpoint', status: 'ok', detail: `${endpoint.text} (the browser is not on this machine: its bridge finds the host there)` }];
  const report = (): DoctorReport => ({ healthy: !checks.some((c) => c.status === 'fail'), cli: { version: VERSION, protocolVersion: PROTOCOL_VERSION }, home: options.home, checks });
  let status;
  try {
    const response = await call('status', {});
    if (!response.ok) throw RelayError.fromData(response.error);
    status = TOOLS.status.result.parse(response.result);
  } catch (error) {
    checks.push(failed('host through the link', error, 'status'));
    return report();
  }
  checks.push({ name: 'host through the link', status: 'ok', detail: `host ${status.host.version} (pid ${status.host.pid}) on the person's machine, ${status.profile === null ? "the browser's own profile" : `profile ${status.profile}`}` });
  if (status.extension === null) {
    checks.push({ name: 'extension connected', status: 'fail', detail: 'the host there runs but has not heard from the extension', fix: "ask the person to reload chrome-relay in chrome://extensions", code: 'extension_not_connected', reason: 'starting' });
    return report();
  }
  checks.push(versionCheck('versions', VERSION, status.host, status.extension));
  if (status.pausedSince !== null && status.pausedSince !== undefined) {
    checks.push({ name: 'paused', status: 'fail', detail: `the person paused agents since ${new Date(status.pausedSince).toISOString()}`, fix: 'stop and tell the person; commands work again once they press Resume', code: 'target_conflict', reason: 'paused_by_user' });
    return report();
  }
  const started = Date.now();
  try {
    const response = await call('ping', {});
    if (!response.ok) throw RelayError.fromData(response.error);
    checks.push({ name: 'extension answering', status: 'ok', detail: `its service worker answered a ping through the link in ${Date.now() - started} ms` });
  } catch (error) {
    checks.push(failed('extension answering', error, 'ping'));
  }
  return report();
}
