/**
 * `chrome-relay bridge` (remote/bridgeServe.ts), run on the person's machine for an agent elsewhere, and the hidden
 * `chrome-relay link` (remote/linkHolder.ts), which the agent's own calls start when they go through ssh:// or cmd:.
 */
import type { Command } from 'commander';
import { relayHome } from '../paths.js';
import { parseEndpoint } from '../remote/endpoint.js';
import { runBridge } from '../remote/bridgeServe.js';
import { runLinkHolder } from '../remote/linkHolder.js';
import { invalidArgument } from '../args.js';

export function registerBridgeCommands(program: Command): void {
  program
    .command('bridge')
    .description(
      "Let an agent on another machine, in a container or in WSL drive this machine's browser, with every limit of yours intact: relays its calls from stdin to this machine's host (what `ssh … chrome-relay bridge` and `CHROME_RELAY_ENDPOINT=ssh://…` run), or from a socket it listens on until stopped. The popup names where each call came from; the options can turn such agents off.",
    )
    .option('--listen <path>', 'listen on this Unix socket (0600, in a folder only you can enter) to forward over ssh or mount into a container; agents use CHROME_RELAY_ENDPOINT=unix:<path>')
    .option('--paired', 'with --listen: let other users of this machine connect (a container running as another uid) and answer only clients that present the pairing secret (CHROME_RELAY_PAIRING; kept in <home>/bridge/pairing)')
    .option('--label <text>', 'how the popup names this bridge (default: the ssh client address, or the socket path)')
    .addHelpText(
      'after',
      [
        '',
        'Example:',
        '  $ chrome-relay bridge --listen ~/.chrome-relay/bridge/relay.sock',
        '  $ CHROME_RELAY_ENDPOINT=ssh://me@desk chrome-relay tabs   # on the agent\'s machine: runs `chrome-relay bridge` on desk',
        '',
      ].join('\n'),
    )
    .action(async (opts: { listen?: string; paired?: boolean; label?: string }) => {
      await runBridge({ home: relayHome(), listen: opts.listen, paired: opts.paired, label: opts.label });
    });
  program
    .command('link', { hidden: true })
    .description('Hold the link to an ssh:// or cmd: endpoint open for the calls of this user (started by those calls; ends when idle).')
    .argument('<endpoint>', 'the endpoint, as CHROME_RELAY_ENDPOINT names it')
    .action(async (text: string) => {
      const endpoint = parseEndpoint(text, 'endpoint');
      if (endpoint.kind === 'unix') throw invalidArgument('endpoint', 'a unix: endpoint needs no holder: calls connect to its socket.', text);
      await runLinkHolder(endpoint, relayHome());
    });
}
