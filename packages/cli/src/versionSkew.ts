/** Compare the versions every response carries and say which side is behind, with the command that fixes it. */
import { VERSION, type Notice } from '@chrome-relay/protocol';

export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

export function skewNotices(extensionVersion: string | null, cliVersion: string = VERSION): Notice[] {
  if (!extensionVersion) return [];
  const order = compareVersions(cliVersion, extensionVersion);
  if (order < 0) {
    return [{ notice: 'cli_outdated', message: `The CLI (${cliVersion}) is older than the extension (${extensionVersion}); update the CLI: npm i -g chrome-relay@latest` }];
  }
  if (order > 0) {
    return [{ notice: 'extension_outdated', message: `The extension (${extensionVersion}) is older than the CLI (${cliVersion}); reload the extension from \`chrome-relay extension path\` or run \`chrome-relay launch\` again.` }];
  }
  return [];
}
