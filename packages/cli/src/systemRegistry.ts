/** The registry of this Windows machine, through its reg.exe (host-files platform/registry.ts says why reg.exe). */
import { spawnSync } from 'node:child_process';
import { regExePath, regExeRegistry } from '@chrome-relay/host-files';
import type { Registry } from '@chrome-relay/host-files';

export function systemRegistry(env: NodeJS.ProcessEnv = process.env): Registry {
  const exe = regExePath(env);
  return regExeRegistry((args) => {
    const result = spawnSync(exe, args, { encoding: 'utf8', windowsHide: true });
    if (result.error) return { status: null, stdout: '', stderr: `${exe}: ${result.error.message}` };
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  });
}
