/**
 * Performance figures, measured in one run on this machine (ratios matter; absolute numbers are noisy).
 *   pnpm bench [--peers] [--runs N] [--warmups N] [--quick] [--headful] [--chars]
 * chrome-relay's column always; with --peers also agent-browser's (installed from npm into a scratch directory
 * outside the repo), on the same fixture server, Chromium binary and flags, one after the other per figure.
 * Progress goes to stderr; the report (markdown tables) to stdout. Never part of `pnpm test`.
 * Code: scripts/bench/ (timing, tokens, report, drivers, suites); pages: e2e/fixtures/benchPages.ts.
 */
import { execFileSync } from 'node:child_process';
import { cpus } from 'node:os';
import { CLI, startXvfb } from '../e2e/harness.js';
import { startFixtureServer } from '../e2e/fixtureServer.js';
import { PEER_TIMEOUT_MS, startAgentBrowser, type PeerTool } from './bench/agentBrowserTool.js';
import { parseBenchArgs, USAGE } from './bench/args.js';
import { CHROMIUM, commonFlags, extraFlags } from './bench/browserFlags.js';
import type { Bench } from './bench/measure.js';
import { AGENT_BROWSER_VERSION, installPeer } from './bench/peerInstall.js';
import { startRelayTool, type RelayTool } from './bench/relayTool.js';
import { cellValue, renderReport, type Section } from './bench/report.js';
import { renderSummary } from './bench/summary.js';
import { charsSection } from './bench/suiteChars.js';
import { commandsSection, startupSection } from './bench/suiteCommands.js';
import { mcpContextSection, mcpSection } from './bench/suiteMcp.js';
import { drawingSection } from './bench/suiteDrawing.js';
import { idleSection } from './bench/suiteIdle.js';
import { remoteSection } from './bench/suiteRemote.js';
import { loopSection, rawCdpSection } from './bench/suiteLoops.js';
import { bigPageSection, snapshotSections } from './bench/suiteSnapshots.js';
import { TOKEN_ENCODING, tokenizerVersion } from './bench/tokens.js';

const options = parseBenchArgs(process.argv.slice(2), process.env);
if ('error' in options) {
  console.error(`${options.error}\n${USAGE}`);
  process.exit(2);
}
if (options.help) {
  console.log(USAGE);
  process.exit(0);
}

const log = (line: string): void => void process.stderr.write(`[bench] ${line}\n`);
const plan = { warmups: options.warmups, runs: options.runs };
// A 50k-element snapshot takes seconds (agent-browser: ~25 s): a few runs say enough, one for the peer.
const bigPlan = { warmups: Math.min(options.warmups, 1), runs: Math.min(options.runs, 3) };
const bigPeerPlan = { warmups: 0, runs: 1 };
const MAX_CHARS = 8000;
const flags = commonFlags(options.headful);

function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', timeout: 20_000 }).trim();
  } catch (err) {
    return `unknown (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`;
  }
}

const header: string[] = [
  `# chrome-relay bench, ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
  `machine: ${process.platform} ${process.arch}, ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.version}`,
  `browser: ${chromiumVersion()} (${CHROMIUM}), ${options.headful ? 'headful under Xvfb' : 'headless=new'}`,
  `timing: hyperfine-style, ${plan.warmups} warm-up(s) + ${plan.runs} runs per figure (50k page: ${bigPlan.warmups} + ${bigPlan.runs}; agent-browser there: ${bigPeerPlan.warmups} + ${bigPeerPlan.runs}); median [min–max] of the wall time of each CLI process, spawn → exit`,
  `tokens: ${TOKEN_ENCODING} (js-tiktoken ${tokenizerVersion()}, ranks shipped in the package) over exactly what each command printed`,
  `flags given to every browser: ${flags.join(' ')}`,
];
const footer: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
async function cleanup(): Promise<void> {
  for (const step of cleanups.splice(0).reverse()) await step().catch((err: unknown) => log(`cleanup: ${err instanceof Error ? err.message : String(err)}`));
}
process.once('SIGINT', () => void cleanup().finally(() => process.exit(130)));

try {
  const server = await startFixtureServer();
  cleanups.push(() => server.close());
  const xvfb = options.headful && !process.env.DISPLAY ? await startXvfb() : undefined;
  if (xvfb) cleanups.push(async () => void xvfb.process.kill());
  const display = xvfb?.display ?? (options.headful ? process.env.DISPLAY : undefined);

  log('starting chrome-relay (launch)');
  const relay: RelayTool = await startRelayTool({ flags, headful: options.headful, ...(display ? { display } : {}) });
  cleanups.push(() => relay.stop());
  const relayVersion = execFileSync(process.execPath, [CLI, '--version'], { env: relay.env, encoding: 'utf8' }).trim();
  header.push(`chrome-relay ${relayVersion} (${CLI})`);

  let peer: PeerTool | undefined;
  if (options.peers) {
    try {
      const installed = await installPeer(log);
      const started = startAgentBrowser({ binary: installed.binary, flags, headful: options.headful, ...(display ? { display } : {}) });
      cleanups.push(async () => {
        await started.stop();
        footer.push('agent-browser: closed; its daemon and browser processes are gone');
      });
      // Its daemon and browser start on the first command: do that untimed, as chrome-relay's launch is.
      log('starting agent-browser (daemon and browser)');
      await started.run({ kind: 'open', url: server.url('/bench/small') });
      peer = started;
      header.push(`peer: agent-browser ${AGENT_BROWSER_VERSION} (${installed.how}; native binary called directly, resident daemon, action timeout raised to ${PEER_TIMEOUT_MS / 1000} s for the 50k page)`);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      header.push(`peer: agent-browser ${AGENT_BROWSER_VERSION} NOT MEASURED — ${why}`);
      log(`agent-browser cannot run here: ${why}`);
    }
  }

  const bench: Bench = { plan, url: (path) => server.url(path), relay, peer, log };
  const launchArgs = ['--user-data-dir', relay.profile, ...(options.headful ? [] : ['--headless'])];
  if (options.chars) {
    const chars = await charsSection(bench, relay.env, launchArgs);
    await cleanup();
    console.log([...header, '', renderReport({ sections: [chars], peers: false, peerName: 'agent-browser' })].join('\n'));
    process.exit(0);
  }
  const startup = await startupSection(bench, relay.env);
  const mcp = await mcpSection(bench, relay.env, cellValue(startup.tabs));
  const mcpContext = await mcpContextSection(bench, relay.env);
  const remote = await remoteSection(bench, relay.env);
  const commands = await commandsSection(bench, startup.floor);
  const chars = await charsSection(bench, relay.env, launchArgs);
  const snapshots = await snapshotSections(bench);
  const big = await bigPageSection(bench, { relay: bigPlan, peer: bigPeerPlan }, MAX_CHARS);
  const loops = await loopSection(bench);
  const idle = await idleSection(bench, flags, options.headful, display);
  const drawing = await drawingSection(bench, display);
  const raw = await rawCdpSection(bench, flags, options.headful ? display : undefined, snapshots.relay5k ? { full: snapshots.relay5k.full.time, interactive: snapshots.relay5k.interactive.time } : undefined);

  for (const [name, args] of [['chrome-relay', relay.browserArgs()], ['agent-browser', peer?.browserArgs()]] as const) {
    if (args) footer.push(`${name}'s browser also runs with: ${extraFlags(args, flags).join(' ') || '(nothing else)'}`);
  }
  const sections: Section[] = [startup.section, mcp.section, mcpContext, remote, commands.section, chars, snapshots.timeSection, snapshots.tokenSection, big, loops.section, idle, drawing, raw];
  const report = renderReport({ sections, peers: peer !== undefined, peerName: 'agent-browser' });
  const summary = renderSummary({
    node: startup.node,
    version: cellValue(startup.version),
    tabs: cellValue(startup.tabs),
    click: cellValue(commands.click),
    paired: { version: startup.paired.version, tabs: startup.paired.tabs, click: commands.clickOverFloor },
    snapshot1500: snapshots.relay1500 ? cellValue(snapshots.relay1500.full.time) : undefined,
    navigate1500: cellValue(commands.open1500),
    loop1500: cellValue(loops.relayFull1500),
    peerLoop1500: peer ? cellValue(loops.peerFull1500) : undefined,
  });
  await cleanup();
  console.log([...header, '', report, '', summary, '', ...footer].join('\n'));
} catch (err) {
  await cleanup();
  console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exitCode = 1;
}
