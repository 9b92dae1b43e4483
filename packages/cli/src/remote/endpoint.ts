/**
 * The endpoint an agent names to reach a browser that is not on its own machine (CHROME_RELAY_ENDPOINT, or the
 * program option --endpoint, which wins):
 *   unix:<path>                 a socket a bridge listens on, forwarded or mounted here (`unix:///p` works too)
 *   ssh://[user@]host[:port]    `chrome-relay bridge` run on host by the system's own ssh (~/.ssh/config, agents
 *                               and ControlMaster apply), as DOCKER_HOST=ssh:// does
 *   cmd:<command line>          any command whose stdin and stdout are a bridge (`wsl.exe`, `docker exec`, …),
 *                               run by the shell
 * Without one, nothing changes: the CLI finds the host of this machine (hostClient.ts).
 */
import { resolve } from 'node:path';
import { ENDPOINT_ENV } from '@chrome-relay/protocol';
import { invalidArgument } from '../args.js';

export type Endpoint =
  | { readonly kind: 'unix'; readonly path: string; readonly text: string }
  | { readonly kind: 'ssh'; readonly host: string; readonly user: string | undefined; readonly port: number | undefined; readonly text: string }
  | { readonly kind: 'cmd'; readonly command: string; readonly text: string };

const FORMS = 'unix:<path>, ssh://[user@]host[:port] or cmd:<command line>';
/** A login name as ssh takes it after -l (no option, no shell word). */
const USER = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,63}$/;
/** A host name or ~/.ssh/config alias, an IPv4 address or a bracketed IPv6 one: never an option (`-oProxyCommand=…`). */
const HOST = /^(?:[A-Za-z0-9_][\w.-]{0,252}|\[[0-9A-Fa-f:.]+(?:%[\w.-]+)?\])$/;

/** `text` as an endpoint; `field` names where it came from (the flag or the variable) in the error. */
export function parseEndpoint(text: string, field: string): Endpoint {
  const bad = (why: string): never => {
    throw invalidArgument(field, `${why}; an endpoint is ${FORMS}, got ${JSON.stringify(text.slice(0, 200))}.`, text.slice(0, 200));
  };
  if (text.startsWith('unix:')) {
    const path = text.slice('unix:'.length).replace(/^\/\/(?=\/)/, '');
    if (path === '') bad('unix: needs the path of the bridge\'s socket');
    return { kind: 'unix', path: resolve(path), text };
  }
  if (text.startsWith('cmd:')) {
    const command = text.slice('cmd:'.length).trim();
    if (command === '') bad('cmd: needs a command line');
    return { kind: 'cmd', command, text };
  }
  if (text.startsWith('ssh://')) {
    const rest = text.slice('ssh://'.length).replace(/\/$/, '');
    const at = rest.lastIndexOf('@');
    const user = at === -1 ? undefined : rest.slice(0, at);
    const hostPort = at === -1 ? rest : rest.slice(at + 1);
    const portMatch = /^(.*?)(?::(\d+))?$/.exec(hostPort);
    const host = portMatch?.[1] ?? '';
    const port = portMatch?.[2] === undefined ? undefined : Number(portMatch[2]);
    if (user !== undefined && !USER.test(user)) bad(`"${user}" is not a user name ssh takes`);
    if (!HOST.test(host)) bad(host === '' ? 'ssh:// needs a host' : `"${host}" is not a host name (a path or options do not belong in it)`);
    if (port !== undefined && (!Number.isInteger(port) || port < 1 || port > 65_535)) bad(`port ${portMatch?.[2] ?? ''} is out of range`);
    return { kind: 'ssh', host, user, port, text };
  }
  return bad('unknown kind of endpoint');
}

/** --endpoint, else $CHROME_RELAY_ENDPOINT (empty means unset); undefined: this machine. */
export function endpointOf(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): Endpoint | undefined {
  if (flag !== undefined) return parseEndpoint(flag, 'endpoint');
  const fromEnv = env[ENDPOINT_ENV];
  return fromEnv === undefined || fromEnv === '' ? undefined : parseEndpoint(fromEnv, ENDPOINT_ENV);
}
