/**
 * Entry point of the native host. Wiring only: Chrome starts us with the caller's origin in argv[2],
 * we greet the extension over stdio, and once it greets back we open the socket and publish the
 * descriptor — so "descriptor exists" means "extension connected". We exit when Chrome closes stdin.
 */
import { homedir, userInfo } from 'node:os';
import { currentPlatform, currentUser, homeProblem, proofForEndpoint, proofMatches } from '@chrome-relay/host-files';
import type { Endpoint } from '@chrome-relay/host-files';
import { PROTOCOL_VERSION, VERSION, type ExtensionHello, type HostDescriptor } from '@chrome-relay/protocol';
import { detectBrowserOn } from './browserInfo.js';
import { isProcessAlive, removeDescriptorIfOurs, sweepStaleHosts, writeDescriptor } from './descriptor.js';
import { stderrLog as log } from './log.js';
import { allowedExtensionIds, checkHello, checkOrigin } from './origin.js';
import { descriptorPath, ensurePrivateDir, removeOwnSocketDir, resolveHome, runDir } from './paths.js';
import { Relay, type HostExit } from './relay.js';
import { listenSocket, probeSocket, type Admit, type SocketServer } from './socketServer.js';
import { createStdioChannel } from './stdioChannel.js';

const HELLO_PATIENCE_MS = 10_000;

function main(): void {
  const origin = process.argv[2];
  const check = checkOrigin(origin, allowedExtensionIds(process.env));
  if (!check.ok) {
    log(`refusing to start: ${check.reason}`);
    process.exit(1);
  }

  const pid = process.pid;
  const platform = currentPlatform();
  // getuid is absent on Windows, where uids mean nothing to the file system (both sides read 0).
  const uid = process.getuid?.() ?? 0;
  const home = resolveHome(process.env);
  const run = runDir(home);
  const descriptorFile = descriptorPath(run, pid);
  const browser = detectBrowserOn(platform.os, process.ppid, process.env, process.cwd());
  const startedAt = new Date().toISOString();

  let location: Endpoint;
  let admit: Admit | undefined;
  try {
    // The home and everything under it hold socket and profile paths: this user's eyes only.
    ensurePrivateDir(home, uid);
    ensurePrivateDir(run, uid);
    // A home others could swap for theirs (a folder above it open to them): CLIs would refuse it anyway (homeTrust.ts).
    const problem = homeProblem(home, currentUser());
    if (problem !== null) throw new Error(`${problem.path} is not this user's own (owner uid ${problem.owner}, mode 0${(problem.mode & 0o7777).toString(8)}: ${problem.kind}); run \`chrome-relay doctor\``);
    location = platform.prepareEndpoint({ run, pid, uid, home, userName: userName(), env: process.env });
    if (location.note !== null) log(location.note);
    admit = proofGate(location.path);
  } catch (error) {
    log(`cannot prepare ${run}: ${errorText(error)}`);
    process.exit(1);
  }
  const socket = location.path;
  const ownSocketDir = location.ownDir;
  const swept = sweepStaleHosts(run, { uid, selfPid: pid, isAlive: isProcessAlive, probe: (path) => probeSocket(path), log }).catch(
    (error: unknown) => log(`could not sweep stale hosts: ${errorText(error)}`),
  );

  let server: SocketServer | null = null;
  let opening: Promise<void> | null = null;
  let exiting = false;

  const relay = new Relay(
    {
      sendToExtension: (message) => channel.send(message),
      setTimer: (ms, fire) => {
        const timer = setTimeout(fire, ms);
        return () => clearTimeout(timer);
      },
      now: Date.now,
      log,
    },
    { pid, socket, browserPid: browser.browserPid, profile: browser.profile },
  );

  const describe = (hello: ExtensionHello): HostDescriptor => ({
    pid,
    socket,
    startedAt,
    browserPid: browser.browserPid,
    profile: browser.profile,
    origin: origin ?? '',
    host: { version: VERSION, protocolVersion: PROTOCOL_VERSION },
    extension: { id: hello.extension.id, version: hello.extension.version, protocolVersion: hello.extension.protocolVersion },
  });

  const onHello = (hello: ExtensionHello): void => {
    clearTimeout(helloWarning);
    if (server !== null) {
      writeDescriptor(descriptorFile, describe(hello));
      return;
    }
    opening ??= (async () => {
      await swept;
      const opened = await listenSocket(socket, { onMessage: (c, raw) => relay.clientMessage(c, raw), onFrameFault: (c, f) => relay.clientFrameFault(c, f), onClose: (c) => relay.clientClosed(c) }, log, undefined, admit);
      server = opened;
      if (exiting) return;
      // Read the latest hello: another may have arrived while the socket was opening.
      writeDescriptor(descriptorFile, describe(relay.extension ?? hello));
      log(`ready: extension ${hello.extension.id} ${hello.extension.version}, socket ${socket}, profile ${browser.profile ?? '(default)'}`);
    })().catch((error: unknown) => {
      log(`cannot open the client socket: ${errorText(error)}`);
      void shutdown(1, 'failed');
    });
  };

  const channel = createStdioChannel(process.stdin, process.stdout, {
    onMessage: (message) => {
      if (message.type === 'hello') {
        const greeted = checkHello(message, check.id);
        if (!greeted.ok) {
          // Before the relay records it: no descriptor or status may ever publish that identity.
          log(`refusing the hello: ${greeted.reason}; exiting`);
          void shutdown(1, 'failed');
          return;
        }
      }
      relay.extensionMessage(message);
      if (message.type === 'hello') onHello(message);
    },
    onInvalid: (raw, problem) => relay.extensionInvalid(raw, problem),
    onFault: (error) => {
      log(`corrupt frame from the extension (${error.message}); exiting so it reconnects to a fresh host`);
      void shutdown(1, 'failed');
    },
    onEnd: (reason) => {
      log(`extension side closed (${reason}); exiting`);
      void shutdown(0, 'browser_closed');
    },
  });

  async function shutdown(code: number, why: HostExit): Promise<void> {
    if (exiting) return;
    exiting = true;
    // Answer in-flight calls while their clients can still read them, then let the sockets flush.
    relay.extensionClosed(why);
    try {
      await opening;
      await server?.close();
      if (ownSocketDir !== null) removeOwnSocketDir(ownSocketDir, uid);
      removeDescriptorIfOurs(descriptorFile, pid);
    } catch (error) {
      log(`cleanup failed: ${errorText(error)}`);
      code = code === 0 ? 1 : code;
    }
    process.exit(code);
  }

  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => {
      log(`received ${signal}; exiting`);
      void shutdown(0, 'stopped');
    });
  }
  process.on('uncaughtException', (error) => {
    log(`bug: ${error.stack ?? error.message}`);
    void shutdown(1, 'failed');
  });
  process.on('unhandledRejection', (reason) => {
    log(`bug: unhandled rejection: ${errorText(reason)}`);
    void shutdown(1, 'failed');
  });

  const helloWarning = setTimeout(() => {
    log(`no hello from the extension after ${HELLO_PATIENCE_MS / 1000} s; still waiting`);
  }, HELLO_PATIENCE_MS);
  helloWarning.unref();

  channel.send({ type: 'hello', host: { version: VERSION, protocolVersion: PROTOCOL_VERSION, pid } });
}

/**
 * What a request must carry to be read (socketServer.ts): on a named pipe, the proof that its client can
 * read this user's secret (host-files secret.ts), created here on first use; on a Unix socket nothing, its
 * file modes decide who connects.
 */
function proofGate(endpoint: string): Admit | undefined {
  const expected = proofForEndpoint(endpoint, { env: process.env, userHome: homedir() });
  if (expected === null) return undefined;
  return (raw) => typeof raw === 'object' && raw !== null && proofMatches((raw as { auth?: unknown }).auth, expected);
}

/** The OS user's name (it names the pipe); userInfo() throws for a uid without a passwd entry. */
function userName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USERNAME ?? process.env.USER ?? '';
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

main();
