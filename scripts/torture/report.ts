/**
 * The suite's figures: per phase, how many invocations or frames, which codes came back, the contract
 * violations (each with what reproduces it), plus measured rows (RSS, recovery times). Rendered as
 * markdown tables on stdout at the end; the suite fails when any phase has a violation.
 */
import type { Ran } from './cli.js';
import type { Violation } from './contract.js';

export interface Failure {
  phase: string;
  what: string;
  violation: Violation;
  /** stdout/stderr tails or other evidence. */
  evidence: string;
}

export interface PhaseFigures {
  name: string;
  invocations: number;
  codes: Map<string, number>;
  internalErrors: number;
  stackTraces: number;
  hangs: number;
  silentSuccesses: number;
  ms: number;
  /** Skipped, with the reason. */
  skipped?: string;
}

export interface Measure {
  phase: string;
  what: string;
  value: string;
  ok: boolean;
}

export class Report {
  readonly phases: PhaseFigures[] = [];
  readonly measures: Measure[] = [];
  readonly failures: Failure[] = [];

  phase(name: string): PhaseFigures {
    const existing = this.phases.find((p) => p.name === name);
    if (existing) return existing;
    const created: PhaseFigures = { name, invocations: 0, codes: new Map(), internalErrors: 0, stackTraces: 0, hangs: 0, silentSuccesses: 0, ms: 0 };
    this.phases.push(created);
    return created;
  }

  /** Count one CLI invocation and keep its violations. */
  ran(phaseName: string, ran: Ran): void {
    const phase = this.phase(phaseName);
    phase.invocations++;
    const code = ran.outcome.timedOut ? 'hang' : ran.outcome.code === 0 ? 'ok' : (ran.checked.error?.code ?? `exit ${ran.outcome.code ?? ran.outcome.signal}`);
    phase.codes.set(code, (phase.codes.get(code) ?? 0) + 1);
    for (const violation of ran.violations) {
      if (violation.kind === 'internal_error') phase.internalErrors++;
      if (violation.kind === 'stack_trace') phase.stackTraces++;
      if (violation.kind === 'hang') phase.hangs++;
      if (violation.kind === 'silent_success') phase.silentSuccesses++;
      this.failures.push({
        phase: phaseName,
        what: `${ran.invocation.label ? `${ran.invocation.label}: ` : ''}chrome-relay ${ran.invocation.argv.map(shellWord).join(' ')}${ran.invocation.stdin ? ` <<< ${JSON.stringify(ran.invocation.stdin.slice(0, 200))}` : ''}`,
        violation,
        evidence: `exit ${ran.outcome.code ?? ran.outcome.signal} in ${ran.outcome.ms} ms; stdout ${JSON.stringify(ran.outcome.stdout.slice(0, 300))}; stderr ${JSON.stringify(ran.outcome.stderr.slice(-600))}`,
      });
    }
  }

  /** Count something that is not a CLI invocation (a frame, a connection) under a code. */
  count(phaseName: string, code: string, n = 1): void {
    const phase = this.phase(phaseName);
    phase.invocations += n;
    phase.codes.set(code, (phase.codes.get(code) ?? 0) + n);
  }

  fail(phaseName: string, what: string, detail: string, evidence = ''): void {
    this.phase(phaseName);
    this.failures.push({ phase: phaseName, what, violation: { kind: 'expectation', detail }, evidence });
  }

  /** A measured figure; `ok: false` fails the suite. */
  measure(phaseName: string, what: string, value: string, ok = true): void {
    this.measures.push({ phase: phaseName, what, value, ok });
    if (!ok) this.fail(phaseName, what, `out of bounds: ${value}`);
  }

  get passed(): boolean {
    return this.failures.length === 0;
  }

  render(header: string[]): string {
    const out: string[] = [...header, ''];
    out.push('| phase | invocations | codes | internal errors | stack traces | hangs | silent exit 0 | time |');
    out.push('|---|---:|---|---:|---:|---:|---:|---:|');
    for (const p of this.phases) {
      if (p.skipped) {
        out.push(`| ${p.name} | – | skipped: ${p.skipped} | – | – | – | – | – |`);
        continue;
      }
      const codes = [...p.codes.entries()].sort((a, b) => b[1] - a[1]).map(([code, n]) => `${code} ${n}`).join(', ');
      out.push(`| ${p.name} | ${p.invocations} | ${codes} | ${p.internalErrors} | ${p.stackTraces} | ${p.hangs} | ${p.silentSuccesses} | ${(p.ms / 1000).toFixed(1)} s |`);
    }
    if (this.measures.length > 0) {
      out.push('', '| phase | measure | value | ok |', '|---|---|---|---|');
      for (const m of this.measures) out.push(`| ${m.phase} | ${m.what} | ${m.value} | ${m.ok ? 'yes' : '**NO**'} |`);
    }
    if (this.failures.length > 0) {
      out.push('', `## ${this.failures.length} failure(s)`);
      for (const f of this.failures.slice(0, 60)) {
        out.push(`- [${f.phase}] ${f.violation.kind}: ${f.violation.detail}`, `  - ${f.what}`, ...(f.evidence ? [`  - ${f.evidence}`] : []));
      }
      if (this.failures.length > 60) out.push(`- … ${this.failures.length - 60} more`);
    }
    return `${out.join('\n')}\n`;
  }
}

function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
