#!/usr/bin/env node
// Builds the extension for the Chrome Web Store and zips it:
//   node scripts/pack-store.mjs [--out <file.zip>]
// default output: dist/chrome-relay-extension-<version>.zip (at the repo root).
//
// A store build has no manifest `key` (the store assigns its own id; uploading a key is refused), so the
// extension is built fresh into a temp dir with withKey:false — the dev build in packages/cli/dist stays as is.
// Users of the store build register its id with `chrome-relay install --extension-id <id>`.
//
// No zip library is a dependency and the `zip` program may be missing, so this writes the archive itself:
// deflate (node:zlib) entries, UTF-8 names, fixed timestamps so the same input gives the same bytes.
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateRawSync } from 'node:zlib';
import { buildExtension } from '../packages/extension/build.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

// MS-DOS date/time of 1980-01-01 00:00, the earliest a zip can say: reproducible archives.
const DOS_TIME = 0;
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/** @param {{ name: string, data: Buffer }[]} entries */
export function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const { name, data } of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const compressed = deflateRawSync(data, { level: 9 });
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed: 2.0 (deflate)
    local.writeUInt16LE(0x0800, 6); // flag: names are UTF-8
    local.writeUInt16LE(8, 8); // method: deflate
    local.writeUInt16LE(DOS_TIME, 10);
    local.writeUInt16LE(DOS_DATE, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(compressed.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, nameBytes, compressed);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE((3 << 8) | 20, 4); // made by: Unix, 2.0 (so the mode below is read)
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt16LE(DOS_TIME, 12);
    central.writeUInt16LE(DOS_DATE, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(compressed.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    // extra, comment, disk number, internal attributes: all zero
    central.writeUInt32LE(((0o100644 << 16) >>> 0), 38); // external attributes: regular file, 0644
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + compressed.length;
  }
  const centralSize = centrals.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralSize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, ...centrals, end]);
}

function filesUnder(dir) {
  const out = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(path);
  }
  return out;
}

async function main() {
  const args = process.argv.slice(2);
  const outIndex = args.indexOf('--out');
  const outDir = mkdtempSync(join(tmpdir(), 'chrome-relay-store-'));
  try {
    await buildExtension({ outDir, withKey: false });
    const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.json'), 'utf8'));
    if ('key' in manifest) throw new Error('the store build still has a manifest key; buildExtension ignored withKey:false');
    const out = resolve(outIndex >= 0 && args[outIndex + 1] ? args[outIndex + 1] : join(root, 'dist', `chrome-relay-extension-${manifest.version}.zip`));
    // manifest.json must sit at the archive root; zip names always use forward slashes.
    const entries = filesUnder(outDir).map((path) => ({ name: relative(outDir, path).split(sep).join('/'), data: readFileSync(path) }));
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, zip(entries));
    console.error(`pack-store: ${out} (${entries.length} files, version ${manifest.version}, no key)`);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
