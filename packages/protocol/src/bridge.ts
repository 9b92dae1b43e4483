/**
 * Agents on another machine, in a container or in WSL reach the person's host through a bridge: `chrome-relay
 * bridge` runs on the person's machine, as the person, and relays framed requests from its stdio (under ssh, or a
 * command such as `cmd.exe /c chrome-relay bridge`) or from a socket it listens on (`--listen`) to the host, the
 * way a local CLI would send them. What the bridge adds on the way is `via`: where the call came from, which the
 * host hands to the extension (the popup shows it; the options can refuse such calls). No zod here: the CLI's
 * start-up path reads it (the schemas are in messages.ts).
 *
 *   agent CLI ─ CHROME_RELAY_ENDPOINT ─▶ link (unix socket, or ssh / a command held open by the agent's side)
 *            ─▶ bridge (person's machine) ─ via + the host's own auth ─▶ host ─▶ extension
 */
import type { RelayError } from './errors.js';
import { reasonedError } from './reasons.js';

/** Environment variable naming the endpoint (`--endpoint` on the command line). */
export const ENDPOINT_ENV = 'CHROME_RELAY_ENDPOINT';

/** Environment variable holding the pairing secret a bridge started with `--paired` asks of every client. */
export const PAIRING_ENV = 'CHROME_RELAY_PAIRING';

/**
 * How a call reached the host: `ssh` (a bridge run by sshd: the label is the client address sshd reports), `unix`
 * (a bridge listening on a socket: its label, or its path), `cmd` (a bridge run by some command on its stdio: its
 * label). Set by the bridge; a local client sends none.
 */
export const VIA_KINDS = ['ssh', 'unix', 'cmd'] as const;
export type ViaKind = (typeof VIA_KINDS)[number];

export interface Via {
  readonly kind: ViaKind;
  /** Which bridge: 1–200 characters of text, shown to the person as text. */
  readonly label: string;
}

export const VIA_LABEL_MAX = 200;

/** The first frame a bridge on stdio writes: its build, and what it will stamp on every call. */
export interface BridgeHello {
  readonly type: 'bridge';
  readonly version: string;
  readonly protocolVersion: number;
  readonly via: Via;
  /** The bridge's process on the person's machine (the agent's side records it: `status`, a test that cuts the link). */
  readonly pid: number;
}

/** The proof a client of a paired bridge presents in `auth`: HMAC of this label under the pairing secret. */
export const PAIRING_PROOF_LABEL = 'bridge';

/** How a via reads for the person (popup): "over ssh from 10.0.0.5", "through the socket /run/x", "through wsl". */
export function viaText(via: Via | undefined | null): string {
  if (via === undefined || via === null) return 'this machine';
  switch (via.kind) {
    case 'ssh':
      return `ssh from ${via.label}`;
    case 'unix':
      return `socket ${via.label}`;
    case 'cmd':
      return `command ${via.label}`;
  }
}

/**
 * A call through a bridge while the person has turned such agents off (the options page): refused by the extension
 * for its tools and by the host for the few it answers itself, both from this one message.
 */
export function remoteAgentsOffError(tool: string, via: Via): RelayError {
  return reasonedError(
    'target_conflict',
    'remote_agents_off',
    `This call came through a bridge (${viaText(via)}), and the person turned off agents on other machines, in containers or in WSL in chrome-relay's options; nothing was done. Stop and tell the person; such calls work again once they turn "Agents on other machines" back on.`,
    { tool, phase: 'dispatch', details: { via: { kind: via.kind, label: via.label } } },
  );
}
