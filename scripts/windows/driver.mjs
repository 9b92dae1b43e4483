// The Windows side of `pnpm test:windows`, run by Windows Node (under Wine on Linux: scripts/test-windows.mjs).
// It plays the two parts chrome-relay does not own — Chrome and the extension — and drives the packed CLI as
// a person's agent would, over the named pipe:
//   0. the package says it runs on Windows (npm i -g honours package.json "os");
//   1. `install --browser chrome`, then find the host the way Chrome on Windows does: the default value of
//      HKCU\Software\Google\Chrome\NativeMessagingHosts\<host> names the manifest, whose `path` is the host;
//   2. start that host the way Chrome starts one: `cmd.exe /d /s /c ""<path>" <origin> --parent-window=0"`
//      with stdin and stdout redirected from and to two named pipes, then greet it as the extension;
//   3. a client without this user's secret is refused;
//   4. `tabs` through the real CLI, answered by this script as the extension;
//   5. `doctor` is healthy and says the pipe refuses clients without the secret;
//   5b. the README's WSL recipe, its Windows half: `cmd.exe /c chrome-relay bridge` on stdio relays a call to the host
//      over the pipe with this user's proof, marked as from WSL (under Wine a Linux process cannot drive a Windows
//      process's stdio: test-windows.mjs; the Linux half is WSL's own interop);
//   6. the host leaves when Chrome closes its stdin, and a killed host's descriptor is swept;
//   7. `uninstall` removes the key and the files.
// Each check prints one TAP line; a check that cannot run because an earlier one failed says so and fails.
// Every wait is bounded. Node on Windows only: this file imports nothing from the repository.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { dirname, isAbsolute, join } from 'node:path';

const HOST_NAME = 'com.chrome_relay.host';
const CHROME_KEY = `HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\${HOST_NAME}`;
const [, , packageDir] = process.argv;
if (!packageDir) throw new Error('usage: driver.mjs <installed chrome-relay package dir>');
const cliFile = join(packageDir, 'dist', 'chrome-relay.cjs');
const regExe = join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'reg.exe');

/** Children run as on Windows 10: nothing skips Node's platform check for them (run.sh needed it for the driver only). */
const childEnv = { ...process.env };
delete childEnv.NODE_SKIP_PLATFORM_CHECK;

// ---------------------------------------------------------------------------------------------- helpers

const withTimeout = (promise, ms, what) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: no result within ${ms} ms`)), ms);
    promise.then(
      (value) => (clearTimeout(timer), resolve(value)),
      (error) => (clearTimeout(timer), reject(error)),
    );
  });

function check(condition, message) {
  if (!condition) throw new Error(message);
}

/** The extension id Chrome derives from the manifest's key: sha256 of the key, first 16 bytes as letters a–p. */
function extensionIdOf(manifest) {
  const digest = createHash('sha256').update(Buffer.from(manifest.key, 'base64')).digest('hex').slice(0, 32);
  return [...digest].map((c) => String.fromCharCode(97 + parseInt(c, 16))).join('');
}

/** The packed CLI, as an agent runs it: node.exe <package>\dist\chrome-relay.cjs <args>, stdio on pipes. */
function cli(args, timeoutMs = 60_000) {
  return withTimeout(
    new Promise((resolve) => {
      const child = spawn(process.execPath, [cliFile, ...args], { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.stderr.on('data', (d) => (stderr += d));
      child.on('close', (code) => {
        let json;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        const errorLine = stderr.split('\n').find((line) => line.startsWith('{"relayError"'));
        resolve({ code, stdout, stderr, json, error: errorLine ? JSON.parse(errorLine).relayError : undefined });
      });
    }),
    timeoutMs,
    `chrome-relay ${args.join(' ')}`,
  );
}

const describeRun = (r) => `exit ${r.code}; stderr: ${r.stderr.trim().slice(0, 600)}${r.error ? '' : `; stdout: ${r.stdout.trim().slice(0, 300)}`}`;

/** The default value of a key, read as Chrome reads it (reg export: UTF-16, so any path survives); null when absent. */
function registryDefault(key) {
  if (spawnSync(regExe, ['query', key], { windowsHide: true }).status !== 0) return null;
  const file = join(process.env.TEMP ?? 'C:\\', `cr-${randomBytes(4).toString('hex')}.reg`);
  const exported = spawnSync(regExe, ['export', key, file, '/y'], { windowsHide: true });
  check(exported.status === 0, `reg export ${key} failed (${exported.status})`);
  const line = readFileSync(file, 'utf16le')
    .split(/\r?\n/)
    .find((l) => l.startsWith('@="'));
  return line === undefined ? null : line.slice(3, -1).replace(/\\(.)/g, '$1');
}

/** Length-prefixed JSON frames (native messaging and the CLI's pipe share the format): a reader over a stream. */
function frameReader(stream) {
  let buffer = Buffer.alloc(0);
  const queue = [];
  const waiters = [];
  let ended = false;
  stream.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    while (buffer.length >= 4 && buffer.length >= 4 + buffer.readUInt32LE(0)) {
      const size = buffer.readUInt32LE(0);
      const message = JSON.parse(buffer.subarray(4, 4 + size).toString('utf8'));
      buffer = buffer.subarray(4 + size);
      const waiter = waiters.shift();
      if (waiter) waiter.resolve(message);
      else queue.push(message);
    }
  });
  const end = () => {
    ended = true;
    for (const waiter of waiters.splice(0)) waiter.reject(new Error('stream ended'));
  };
  stream.on('end', end);
  stream.on('close', end);
  stream.on('error', end);
  return {
    next(ms, what) {
      if (queue.length > 0) return Promise.resolve(queue.shift());
      if (ended) return Promise.reject(new Error(`${what}: stream ended`));
      return withTimeout(new Promise((resolve, reject) => waiters.push({ resolve, reject })), ms, what);
    },
  };
}

function frame(message) {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  const header = Buffer.alloc(4);
  header.writeUInt32LE(body.length);
  return Buffer.concat([header, body]);
}

/**
 * Start the host as Chrome does on Windows: two named pipes, and cmd.exe running the manifest's path with
 * stdin and stdout redirected from and to them. Resolves with Chrome's ends of both pipes.
 */
async function startHostLikeChrome(hostPath, origin) {
  const token = randomBytes(8).toString('hex');
  const inName = `\\\\.\\pipe\\chrome.nativeMessaging.in.${token}`;
  const outName = `\\\\.\\pipe\\chrome.nativeMessaging.out.${token}`;
  const inServer = createServer();
  const outServer = createServer();
  await Promise.all([inServer, outServer].map((server, i) => new Promise((resolve) => server.listen(i === 0 ? inName : outName, resolve))));
  const toHost = new Promise((resolve) => inServer.once('connection', resolve));
  const fromHost = new Promise((resolve) => outServer.once('connection', resolve));
  const commandLine = `/d /s /c ""${hostPath}" ${origin} --parent-window=0" < ${inName} > ${outName}`;
  const comspec = process.env.ComSpec ?? join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'cmd.exe');
  const shell = spawn(comspec, [commandLine], { windowsVerbatimArguments: true, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true, cwd: dirname(hostPath) });
  let stderr = '';
  shell.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => shell.on('exit', (code) => resolve(code)));
  try {
    const [input, output] = await withTimeout(Promise.all([toHost, fromHost]), 30_000, 'the host opening its stdin and stdout');
    inServer.close();
    outServer.close();
    return { input, output, shell, exited, stderr: () => stderr };
  } catch (error) {
    inServer.close();
    outServer.close();
    shell.kill();
    throw new Error(`${error.message}; cmd.exe said: ${stderr.trim().slice(0, 400)}`);
  }
}

/** The extension's side of the native-messaging port: greet, then answer calls with `answer(tool, params)`. */
function playExtension(host, extension, answer) {
  const reader = frameReader(host.output);
  const calls = [];
  /** Where each call came from (`via`, set by a bridge), in order: null for a local client. */
  const vias = [];
  let stopped = false;
  const send = (message) => host.input.write(frame(message));
  return {
    calls,
    vias,
    async greet() {
      const hello = await reader.next(30_000, "the host's hello");
      check(hello.type === 'hello' && typeof hello.host?.pid === 'number', `the host's first frame is not its hello: ${JSON.stringify(hello).slice(0, 200)}`);
      send({ type: 'hello', extension: { id: extension.id, version: extension.version, protocolVersion: hello.host.protocolVersion }, userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0.0.0 Safari/537.36' });
      void (async () => {
        while (!stopped) {
          let message;
          try {
            message = await reader.next(3_600_000, 'a call');
          } catch {
            return;
          }
          if (message.type !== 'call') continue;
          calls.push(message.tool);
          vias.push(message.via ?? null);
          send({ type: 'result', id: message.id, ok: true, result: answer(message.tool, message.params) });
        }
      })();
      return hello.host;
    },
    stop() {
      stopped = true;
    },
  };
}

/** The descriptor of host `pid` once it has published it. */
async function waitForDescriptor(runDir, pid, ms = 30_000) {
  const file = join(runDir, `host-${pid}.json`);
  const deadline = Date.now() + ms;
  for (;;) {
    if (existsSync(file)) return { file, descriptor: JSON.parse(readFileSync(file, 'utf8')) };
    if (Date.now() > deadline) throw new Error(`no descriptor ${file} within ${ms} ms (run dir: ${existsSync(runDir) ? readdirSync(runDir).join(', ') : 'missing'})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** One raw request on the pipe, as any local process could send it; resolves with the answer. */
function rawRequest(pipe, request) {
  return withTimeout(
    new Promise((resolve, reject) => {
      const socket = connect(pipe);
      const reader = frameReader(socket);
      socket.once('error', reject);
      socket.once('connect', () => socket.write(frame(request)));
      reader.next(20_000, 'the answer to a raw request').then(
        (message) => (socket.destroy(), resolve(message)),
        (error) => (socket.destroy(), reject(error)),
      );
    }),
    25_000,
    'a raw request',
  );
}

const gone = (pid) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

async function until(condition, ms, what) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

// ----------------------------------------------------------------------------------------------- checks

const extensionManifest = JSON.parse(readFileSync(join(packageDir, 'dist', 'extension', 'manifest.json'), 'utf8'));
const extension = { id: extensionIdOf(extensionManifest), version: extensionManifest.version };
const origin = `chrome-extension://${extension.id}/`;
const home = join(process.env.LOCALAPPDATA ?? '', 'chrome-relay');
const runDir = join(home, 'run');
const TAB = { id: 7, windowId: 1, index: 0, url: 'https://example.com/from-the-wine-test', title: 'Seen through the named pipe', active: true, status: 'complete', groupId: -1 };
const answer = (tool) => {
  if (tool === 'tabs') return { windows: [{ id: 1, focused: true, type: 'normal', tabs: [TAB] }] };
  if (tool === 'ping') return { extensionVersion: extension.version, page: null };
  return {};
};

const state = {};
const results = [];
async function step(name, needs, run) {
  const missing = needs.filter((key) => state[key] === undefined);
  const started = Date.now();
  try {
    if (missing.length > 0) throw new Error(`not reached: needs ${missing.join(', ')} from a failed check`);
    await run();
    results.push(true);
    console.log(`ok ${results.length} - ${name} (${Date.now() - started} ms)`);
  } catch (error) {
    results.push(false);
    console.log(`not ok ${results.length} - ${name}\n  # ${String(error.message).replace(/\n/g, '\n  # ')}`);
  }
}

const started = Date.now();
console.log(`# Windows Node ${process.version} on ${process.platform} ${(await import('node:os')).release()}; package ${packageDir}; home ${home}`);

await step('the package is for Windows too: its "os" lists win32 (npm i -g refuses it otherwise)', [], async () => {
  const os = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')).os;
  check(Array.isArray(os) && os.includes('win32'), `package.json "os" is ${JSON.stringify(os)}`);
});

await step('install registers the host where Chrome on Windows looks: the registry key names a manifest whose path is a .cmd/.exe host for this extension', [], async () => {
  const installed = await cli(['install', '--browser', 'chrome', '--json']);
  state.installOutput = installed.json;
  check(installed.code === 0, `install failed: ${describeRun(installed)}`);
  const manifestFile = registryDefault(CHROME_KEY);
  check(manifestFile !== null, `${CHROME_KEY} does not exist: Chrome would not find the host (install wrote ${JSON.stringify(installed.json?.written ?? null)})`);
  check(isAbsolute(manifestFile) && existsSync(manifestFile), `${CHROME_KEY} names ${manifestFile}, which does not exist`);
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));
  check(manifest.name === HOST_NAME && manifest.type === 'stdio', `the manifest names ${manifest.name} (${manifest.type})`);
  check(Array.isArray(manifest.allowed_origins) && manifest.allowed_origins.includes(origin), `allowed_origins ${JSON.stringify(manifest.allowed_origins)} lacks ${origin}`);
  check(typeof manifest.path === 'string' && isAbsolute(manifest.path) && existsSync(manifest.path), `the manifest's path ${manifest.path} is not an existing absolute file`);
  check(/\.(cmd|bat|exe)$/i.test(manifest.path), `Chrome starts hosts through cmd.exe, which runs only .exe, .cmd and .bat; the path is ${manifest.path}`);
  check(/ /.test(process.execPath), `node.exe should sit in a path with spaces for this test (it is ${process.execPath})`);
  state.hostPath = manifest.path;
  state.manifestFile = manifestFile;
});

// A launcher install reported, even when Chrome could not find it: so the next checks test the host itself.
state.launcher = state.hostPath ?? state.installOutput?.launcher;

await step('the host starts through its launcher as Chrome starts it (cmd.exe /d /s /c, stdio on named pipes), greets, and publishes a named pipe', ['launcher'], async () => {
  const host = await startHostLikeChrome(state.launcher, origin);
  state.host = host;
  const extensionSide = playExtension(host, extension, answer);
  state.extensionSide = extensionSide;
  const said = () => `; cmd.exe and the host said: ${host.stderr().trim().slice(0, 600) || '(nothing)'}`;
  const hello = await extensionSide.greet().catch((error) => {
    throw new Error(`${error.message}${said()}`);
  });
  const { file, descriptor } = await waitForDescriptor(runDir, hello.pid).catch((error) => {
    throw new Error(`${error.message}${said()}`);
  });
  state.hostPid = hello.pid;
  check(/^\\\\\.\\pipe\\chrome-relay-[0-9a-f]{16}-\d+-[0-9a-f]+$/.test(descriptor.socket), `the descriptor names ${descriptor.socket}, not a chrome-relay named pipe`);
  check(descriptor.extension?.id === extension.id, `the descriptor names extension ${descriptor.extension?.id}`);
  state.pipe = descriptor.socket;
  state.descriptorFile = file;
});

await step("a client that cannot show this user's secret is refused, and learns nothing of the browser", ['pipe'], async () => {
  const request = { id: 5, tool: 'tabs', params: {}, timeoutMs: 5000, client: { version: extension.version, protocolVersion: 1 } };
  for (const [label, extra] of [['no proof', {}], ['a wrong proof', { auth: 'ab'.repeat(32) }]]) {
    const answered = await rawRequest(state.pipe, { ...request, ...extra });
    check(answered.ok === false && answered.error?.code === 'extension_not_connected' && answered.error?.details?.reason === 'client_not_authorized', `with ${label} the host answered ${JSON.stringify(answered).slice(0, 300)}`);
    check(answered.versions?.extension === null, `the refusal tells the extension's version: ${JSON.stringify(answered.versions)}`);
  }
  check(!state.extensionSide.calls.includes('tabs'), 'a refused request reached the extension');
});

await step('tabs runs through the real CLI over the named pipe, answered by the extension', ['pipe'], async () => {
  const tabs = await cli(['tabs', '--json']);
  check(tabs.code === 0, `tabs failed: ${describeRun(tabs)}`);
  const listed = tabs.json?.windows?.[0]?.tabs?.[0];
  check(listed?.title === TAB.title && listed?.url === TAB.url, `tabs printed ${tabs.stdout.slice(0, 300)}`);
  check(state.extensionSide.calls.includes('tabs'), 'the extension never saw the tabs call');
});

await step("doctor is healthy through the named pipe and says the pipe refuses clients without this user's secret", ['pipe'], async () => {
  const doctor = await cli(['doctor', '--json']);
  const checks = doctor.json?.checks ?? [];
  const named = (prefix) => checks.find((c) => c.name.startsWith(prefix));
  const failed = checks.filter((c) => c.status === 'fail').map((c) => `${c.name}: ${c.detail}`);
  check(doctor.code === 0 && doctor.json?.healthy === true, `doctor is not healthy: ${failed.join(' | ') || describeRun(doctor)}`);
  check(named('installed host')?.detail.includes('chrome-relay-host.cmd'), `installed host: ${JSON.stringify(named('installed host'))}`);
  check(named('host manifest (chrome)')?.detail.startsWith(CHROME_KEY), `host manifest: ${JSON.stringify(named('host manifest (chrome)'))}`);
  check(named('host reachable')?.detail.includes(state.pipe), `host reachable: ${JSON.stringify(named('host reachable'))}`);
  check(named('host access')?.status === 'ok' && /refuses clients without this user's secret/.test(named('host access').detail), `host access: ${JSON.stringify(named('host access'))}`);
  check(named('extension answering')?.status === 'ok', `extension answering: ${JSON.stringify(named('extension answering'))}`);
});

await step("the README's WSL recipe, its Windows half: `cmd.exe /c chrome-relay bridge --label wsl` on stdio (as WSL starts it) relays a call over the named pipe with this user's proof, marked as from wsl", ['pipe'], async () => {
  // The command the recipe names, from the README in the package (prepack copies it in).
  const readme = readFileSync(join(packageDir, 'README.md'), 'utf8');
  const block = /<!-- readme-test: remote-wsl -->\n```sh\n([\s\S]*?)\n```/.exec(readme)?.[1] ?? '';
  const command = /CHROME_RELAY_ENDPOINT='cmd:([^']+)'/.exec(block)?.[1];
  check(command !== undefined, `no cmd: endpoint in the README's remote-wsl block: ${block}`);
  const [program, ...words] = command.split(/\s+/);
  // `chrome-relay` on PATH as `npm i -g` puts it: a .cmd shim beside node_modules.
  const npmDir = dirname(dirname(packageDir));
  writeFileSync(join(npmDir, 'chrome-relay.cmd'), `@"${process.execPath}" "%~dp0\\node_modules\\chrome-relay\\dist\\chrome-relay.cjs" %*\r\n`);
  const bridge = spawn(program, words, { env: { ...childEnv, PATH: `${npmDir};${childEnv.PATH ?? childEnv.Path ?? ''}` }, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  let said = '';
  bridge.stderr.on('data', (d) => (said += d));
  try {
    const reader = frameReader(bridge.stdout);
    const hello = await reader.next(60_000, "the bridge's hello").catch((error) => {
      throw new Error(`${error.message}; it said: ${said.trim().slice(0, 400)}`);
    });
    check(hello.type === 'bridge' && hello.via?.kind === 'cmd' && hello.via?.label === 'wsl', `the bridge greeted ${JSON.stringify(hello).slice(0, 300)}`);
    const before = state.extensionSide.calls.length;
    bridge.stdin.write(frame({ id: 3, tool: 'tabs', params: {}, timeoutMs: 10_000, client: { version: extension.version, protocolVersion: 1 } }));
    const answered = await reader.next(30_000, 'the answer through the bridge');
    check(answered.id === 3 && answered.ok === true && answered.result?.windows?.[0]?.tabs?.[0]?.title === TAB.title, `through the bridge: ${JSON.stringify(answered).slice(0, 300)}`);
    const seen = state.extensionSide.vias.slice(before);
    check(seen.length === 1 && seen[0]?.kind === 'cmd' && seen[0]?.label === 'wsl', `the extension saw the call come from ${JSON.stringify(seen)}`);
  } finally {
    bridge.stdin.end();
    await withTimeout(new Promise((resolve) => bridge.once('exit', resolve)), 20_000, 'the bridge ending with its stdin').catch(() => bridge.kill());
  }
});

await step('the host exits and removes its descriptor when Chrome closes its stdin; a killed host is swept as stale', ['hostPid', 'launcher'], async () => {
  state.extensionSide.stop();
  state.host.input.end();
  await until(() => gone(state.hostPid), 20_000, `host ${state.hostPid} exiting after its stdin closed`);
  check(!existsSync(state.descriptorFile), `the host left ${state.descriptorFile} behind`);
  // A second host, killed: its descriptor stays until someone sweeps it.
  const second = await startHostLikeChrome(state.launcher, origin);
  const side = playExtension(second, extension, answer);
  const hello = await side.greet();
  const { file } = await waitForDescriptor(runDir, hello.pid);
  const killed = spawnSync(join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'taskkill.exe'), ['/F', '/PID', String(hello.pid)], { windowsHide: true });
  check(killed.status === 0, `taskkill /F /PID ${hello.pid} failed`);
  await until(() => gone(hello.pid), 20_000, `host ${hello.pid} dying`);
  side.stop();
  second.input.destroy();
  check(existsSync(file), 'a killed host should leave its descriptor for the sweep to find');
  const doctor = await cli(['doctor', '--json']);
  const stale = doctor.json?.checks?.find((c) => c.name === 'stale hosts');
  check(stale?.detail.includes(`host-${hello.pid}.json`) && !existsSync(file), `doctor did not sweep ${file}: ${JSON.stringify(stale)}`);
  const tabs = await cli(['tabs', '--json']);
  check(tabs.code === 1 && tabs.error?.code === 'extension_not_connected', `with no host, tabs: ${describeRun(tabs)}`);
});

await step('uninstall removes the registry key, the manifest and the launcher', ['manifestFile'], async () => {
  const removed = await cli(['uninstall', '--json']);
  check(removed.code === 0, `uninstall failed: ${describeRun(removed)}`);
  check(registryDefault(CHROME_KEY) === null, `${CHROME_KEY} is still there`);
  for (const file of [state.manifestFile, state.hostPath]) check(!existsSync(file), `${file} is still there`);
});

const passed = results.filter(Boolean).length;
console.log(`1..${results.length}`);
console.log(`# ${passed}/${results.length} passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(passed === results.length ? 0 : 1);
