/**
 * dist/chrome-relay.cjs, the command agents run. Kept tiny: it is what every call loads before
 * anything else, and it needs nothing but Node's own modules. It
 *   - prints `--version` itself;
 *   - hands a tool command (`click @e3`, `tabs`) to the fast path, dist/call.cjs (src/fast/): no
 *     commander, no hand-written commands, no schemas — what an agent's every call pays for;
 *   - runs the full CLI, dist/cli.cjs, for everything else, and for what the fast path declines
 *     (help, an option it does not know), which it says before printing or sending anything.
 * Each bundle is compiled with a V8 code cache of its own (bundle.ts).
 */
import { commandWordsOf } from '../argvScan.js';

/** Set by packages/cli/build.mjs: the release, the content hash of each bundle, the first words of the tool commands. */
declare const __CLI_VERSION__: string;
declare const __CLI_BUNDLE_HASH__: string;
declare const __CALL_BUNDLE_HASH__: string;
declare const __FAST_COMMAND_WORDS__: readonly string[];

interface FastBundle {
  runFast(argv: readonly string[]): boolean;
}

const argv = process.argv.slice(2);
const fastCandidate = (): boolean => __FAST_COMMAND_WORDS__.includes(commandWordsOf(process.argv, 1)[0] ?? '');

if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) process.stdout.write(`${__CLI_VERSION__}\n`);
else {
  // Loaded here, not imported above: --version then requires none of the modules a bundle run needs (vm, os).
  void import('./bundle.js').then(({ runBundle }) => {
    if (!fastCandidate() || !(runBundle(__dirname, 'call', __CALL_BUNDLE_HASH__) as FastBundle).runFast(process.argv)) runBundle(__dirname, 'cli', __CLI_BUNDLE_HASH__);
  });
}
