import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { currentExtensionDir, installExtension } from './extensionFolder.js';
import { uninstall } from './uninstall.js';

let root = '';
let home = '';
let source = '';
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'cr-extfolder-'));
  home = join(root, 'home');
  source = join(root, 'prefix/lib/node_modules/chrome-relay/dist/extension');
  build('0.1.0', 'one');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** An unpacked extension as the package ships it: a manifest, a script, an icon in a subfolder. */
function build(version: string, code: string): void {
  rmSync(source, { recursive: true, force: true });
  mkdirSync(join(source, 'icons'), { recursive: true });
  writeFileSync(join(source, 'manifest.json'), JSON.stringify({ manifest_version: 3, name: 'chrome-relay', version }));
  writeFileSync(join(source, 'background.js'), `// ${code}\n`);
  writeFileSync(join(source, 'icons/icon16.png'), 'png');
}

const files = (dir: string): string[] => readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => !f.startsWith('.')).sort();

describe('the extension folder a person loads', () => {
  it("is a real directory in the home holding the package's extension, outside the package, and outlives it", () => {
    const folder = installExtension(home, source);
    expect(folder).toMatchObject({ path: currentExtensionDir(home), version: '0.1.0', versionPath: join(home, 'extension/0.1.0'), refreshed: false, previousVersion: null });
    expect(folder.path.startsWith(join(root, 'prefix'))).toBe(false);
    expect(lstatSync(folder.path).isDirectory()).toBe(true);
    expect(files(folder.path)).toEqual(files(source));
    expect(files(folder.versionPath)).toEqual(files(source));
    // npm uninstall -g deletes the package: the folder Chrome was given stays whole.
    rmSync(join(root, 'prefix'), { recursive: true, force: true });
    expect(readFileSync(join(folder.path, 'background.js'), 'utf8')).toBe('// one\n');
  });

  it('leaves a folder that already holds this build alone', () => {
    installExtension(home, source);
    const before = statSync(join(currentExtensionDir(home), 'background.js')).mtimeMs;
    expect(installExtension(home, source).refreshed).toBe(false);
    expect(statSync(join(currentExtensionDir(home), 'background.js')).mtimeMs).toBe(before);
  });

  it('refreshes the same path for a new build (same version or a new one), keeps the previous version, prunes older ones', () => {
    installExtension(home, source);
    build('0.1.0', 'two');
    expect(installExtension(home, source)).toMatchObject({ refreshed: true, previousVersion: '0.1.0' });
    expect(readFileSync(join(currentExtensionDir(home), 'background.js'), 'utf8')).toBe('// two\n');
    build('0.2.0', 'three');
    expect(installExtension(home, source)).toMatchObject({ path: currentExtensionDir(home), version: '0.2.0', refreshed: true, previousVersion: '0.1.0' });
    expect(readFileSync(join(currentExtensionDir(home), 'background.js'), 'utf8')).toBe('// three\n');
    expect(readdirSync(join(home, 'extension')).sort()).toEqual(['0.1.0', '0.2.0', 'current']);
    build('0.3.0', 'four');
    installExtension(home, source);
    expect(readdirSync(join(home, 'extension')).sort()).toEqual(['0.2.0', '0.3.0', 'current']);
  });

  it('refuses a package without its extension (internal_error), and uninstall removes the folder whole', () => {
    expect(() => installExtension(home, join(root, 'nowhere'))).toThrow(RelayError);
    installExtension(home, source);
    expect(uninstall(home)).toMatchObject({ nothingInstalled: false, removed: [join(home, 'extension')] });
    expect(existsSync(join(home, 'extension'))).toBe(false);
  });
});
