/**
 * Regenerates docs/snapshot-conformance.md: chrome-relay's snapshot roles and names compared with Chrome's own
 * accessibility tree on every e2e fixture and the tricky conformance pages (e2e/conformance.ts does the work).
 *   node scripts/build.mjs && node scripts/run-ts.mjs scripts/snapshot-conformance.ts [--check]
 * Runs the built CLI against a private headless browser. With --check it writes nothing and exits 1 when the
 * agreement is under 98 % or a difference is unexplained (the e2e checks the same).
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFORMANCE_PAGES, conformPage, renderReport, totals, type PageReport } from '../e2e/conformance.js';
import { startRelay } from '../e2e/harness.js';

const check = process.argv.includes('--check');
const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'snapshot-conformance.md');
const relay = await startRelay({ headless: process.env.E2E_HEADLESS !== '0' });
try {
  const reports: PageReport[] = [];
  for (const page of CONFORMANCE_PAGES) {
    process.stderr.write(`[conformance] ${page}\n`);
    reports.push(await conformPage(relay, page));
  }
  const sum = totals(reports);
  process.stderr.write(`[conformance] ${sum.agreed}/${sum.compared} = ${(sum.rate * 100).toFixed(1)} %, ${sum.unexplained.length} unexplained\n`);
  if (!check) writeFileSync(out, renderReport(reports, new Date().toISOString().slice(0, 10)));
  if (check && (sum.rate < 0.98 || sum.unexplained.length > 0)) process.exitCode = 1;
} finally {
  await relay.stop();
}
