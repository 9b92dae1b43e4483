import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, REASONED_CODES, type ReasonedCode } from '../packages/protocol/src/index.js';

/**
 * Every failure of a code that covers several situations carries `details.reason` from the closed
 * list in packages/protocol/src/reasons.ts, so an agent can pick the move that fits. The types check
 * the reason given to `reasonedError`; this test checks that nothing builds such a code without it:
 * `new RelayError('<reasoned code>', …)` is refused, and every `new RelayError(<expression>, …)` must
 * be a reviewed site that copies a code together with the details (and reason) it came with.
 */
const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Codes whose throw sites are being converted in parallel work (target_conflict: tab targeting;
 * extension_not_connected: host health). Each leaves this list once its last literal site is gone —
 * the test below fails while a listed code has none left, so the list cannot go stale.
 */
const PENDING = new Set<ReasonedCode>([]);

/** Reviewed sites that pass a code through from an error that already has its details. */
const DYNAMIC_SITES: Record<string, readonly string[]> = {
  // fromData: rebuilds an error received over the wire, details included.
  'packages/protocol/src/errors.ts': ['data.code'],
  // reasonedError itself: the one place a reasoned code is built.
  'packages/protocol/src/reasons.ts': ['code'],
  // asInterrupted: the same error, non-retryable, with its details spread.
  'packages/protocol/src/interrupted.ts': ['error.code'],
  // update: one browser's own error with its details spread.
  'packages/cli/src/update.ts': ['only.error.code'],
  // reconnect: one browser's own error with its details spread.
  'packages/cli/src/reconnect.ts': ['only.error.code'],
  // doctor: the first failing check's code; a reasoned one keeps its reason (Check.reason).
  'packages/cli/src/doctor.ts': ["first.code ?? 'extension_not_connected'"],
  // printActionResult: the snapshot after an action failed; its own error, details spread.
  'packages/cli/src/outputs.ts': ['after.error.code'],
  // scrubbedError/explainFailure: the same error with a blocked site's URL cut from its message and details.
  'packages/extension/src/policy/policy.ts': ['error.code', 'error.code'],
  // cliError: invalid_arguments or target_conflict (PENDING).
  'packages/cli/src/callTarget.ts': ['code'],
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'dist' || name === 'testing') return [];
    return statSync(path).isDirectory() ? sources(path) : /(?<!\.test)\.ts$/.test(name) ? [path] : [];
  });
}

/** The first argument of each `new RelayError(` call, as written (up to its top-level comma). */
export function relayErrorCodeArgs(text: string): string[] {
  const args: string[] = [];
  for (const match of text.matchAll(/new RelayError\(/g)) {
    let depth = 0;
    let quote: string | null = null;
    let i = (match.index ?? 0) + match[0].length;
    const start = i;
    for (; i < text.length; i++) {
      const ch = text[i];
      if (quote) {
        if (ch === '\\') i++;
        else if (ch === quote) quote = null;
      } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
      else if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') {
        if (depth === 0) break;
        depth--;
      } else if (ch === ',' && depth === 0) break;
    }
    args.push(text.slice(start, i).trim());
  }
  return args;
}

const literalCode = (arg: string): string | undefined => /^'([a-z_]+)'$/.exec(arg)?.[1];

function scan(): { literal: { file: string; code: string }[]; dynamic: { file: string; arg: string }[] } {
  const literal: { file: string; code: string }[] = [];
  const dynamic: { file: string; arg: string }[] = [];
  for (const path of sources(join(repo, 'packages'))) {
    const file = relative(repo, path);
    for (const arg of relayErrorCodeArgs(readFileSync(path, 'utf8'))) {
      const code = literalCode(arg);
      if (code === undefined) dynamic.push({ file, arg });
      else literal.push({ file, code });
    }
  }
  return { literal, dynamic };
}

describe('reasoned codes always carry details.reason', () => {
  const { literal, dynamic } = scan();

  it('finds the throw sites it checks (the scan itself works)', () => {
    expect(relayErrorCodeArgs("x = new RelayError(\n  'timeout',\n  `a, b`, {});\nnew RelayError(f(a, b), 'm')")).toEqual(["'timeout'", 'f(a, b)']);
    expect(literal.length).toBeGreaterThan(50);
    for (const { code } of literal) expect(ERROR_CODES).toContain(code);
  });

  it('no source builds stale_ref, element_not_found or timeout (or any converted reasoned code) without reasonedError', () => {
    const checked = new Set<string>(REASONED_CODES.filter((code) => !PENDING.has(code)));
    expect([...checked].sort()).toEqual(expect.arrayContaining(['element_not_found', 'stale_ref', 'timeout']));
    expect(literal.filter((site) => checked.has(site.code))).toEqual([]);
  });

  it('every pending code still has literal sites to convert (drop it from PENDING once it has none)', () => {
    for (const code of PENDING) expect(literal.some((site) => site.code === code), code).toBe(true);
  });

  it('every non-literal code is a reviewed site that keeps the details it copies', () => {
    const unreviewed = dynamic.filter(({ file, arg }) => !(DYNAMIC_SITES[file] ?? []).includes(arg));
    expect(unreviewed).toEqual([]);
    const gone = Object.entries(DYNAMIC_SITES).flatMap(([file, args]) => args.filter((arg) => !dynamic.some((d) => d.file === file && d.arg === arg)).map((arg) => ({ file, arg })));
    expect(gone).toEqual([]);
  });
});
