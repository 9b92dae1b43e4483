import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defaultValueOfExport, regExePath, regExeRegistry, type RegRunner } from './registry.js';

const KEY = 'HKCU\\Software\\Google\\Chrome\\NativeMessagingHosts\\com.chrome_relay.host';
let scratch = '';
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'cr-reg-'));
});
afterEach(() => {
  rmSync(scratch, { recursive: true, force: true });
});

/** A registry of one machine, as reg.exe shows it: records every argument array it is given. */
function fakeReg(values: Map<string, string>): { run: RegRunner; issued: string[][] } {
  const issued: string[][] = [];
  const ok = { status: 0, stdout: 'The operation completed successfully.\r\n', stderr: '' };
  const missing = { status: 1, stdout: '', stderr: 'ERROR: The system was unable to find the specified registry key or value.\r\n' };
  const run: RegRunner = (args) => {
    issued.push([...args]);
    const [verb, key = ''] = args;
    if (verb === 'query') return values.has(key) ? ok : missing;
    if (verb === 'add') {
      values.set(key, args[args.indexOf('/d') + 1] ?? '');
      return ok;
    }
    if (verb === 'delete') return values.delete(key) ? ok : missing;
    if (verb === 'export') {
      const value = values.get(key);
      if (value === undefined) return missing;
      const escaped = value.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
      writeFileSync(args[2] ?? '', `\uFEFFWindows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\${key.slice(5)}]\r\n@="${escaped}"\r\n\r\n`, 'utf16le');
      return ok;
    }
    return { status: 1, stdout: '', stderr: 'bad verb' };
  };
  return { run, issued };
}

describe('the registry through reg.exe', () => {
  it('issues argument arrays, never a shell line: add /ve REG_SZ /d <path> /f, query before export and delete', () => {
    const values = new Map<string, string>();
    const { run, issued } = fakeReg(values);
    const registry = regExeRegistry(run, scratch);
    const manifest = 'C:\\Users\\José "x" & y\\AppData\\Local\\chrome-relay\\host\\manifests\\chrome.json';
    registry.writeDefault(KEY, manifest);
    expect(registry.readDefault(KEY)).toBe(manifest);
    registry.deleteKey(KEY);
    registry.deleteKey(KEY);
    expect(registry.readDefault(KEY)).toBeNull();
    expect(issued.map((args) => args.map((a) => (a.startsWith(scratch) ? '<file>' : a)))).toEqual([
      ['add', KEY, '/ve', '/t', 'REG_SZ', '/d', manifest, '/f'],
      ['query', KEY],
      ['export', KEY, '<file>', '/y'],
      ['query', KEY],
      ['delete', KEY, '/f'],
      ['query', KEY],
      ['query', KEY],
    ]);
  });

  it('fails loudly when reg.exe refuses a write', () => {
    const registry = regExeRegistry(() => ({ status: 1, stdout: '', stderr: 'ERROR: Access is denied.' }), scratch);
    expect(() => registry.writeDefault(KEY, 'C:\\m.json')).toThrow(/reg add .* failed \(exit 1\): ERROR: Access is denied\./);
  });

  it('reads the default value of the first key of an export, unescaped, and nothing else', () => {
    const text = '\uFEFFWindows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\A]\r\n"name"="other"\r\n@="C:\\\\a \\"b\\"\\\\c.json"\r\n\r\n[HKEY_CURRENT_USER\\A\\B]\r\n@="sub"\r\n';
    expect(defaultValueOfExport(text)).toBe('C:\\a "b"\\c.json');
    expect(defaultValueOfExport('Windows Registry Editor Version 5.00\r\n\r\n[HKEY_CURRENT_USER\\A]\r\n"name"="x"\r\n[HKEY_CURRENT_USER\\A\\B]\r\n@="sub"\r\n')).toBeNull();
  });

  it('runs the system reg.exe by absolute path', () => {
    expect(regExePath({ SystemRoot: 'C:\\WINDOWS' })).toBe('C:\\WINDOWS\\System32\\reg.exe');
    expect(regExePath({})).toBe('C:\\Windows\\System32\\reg.exe');
  });
});
