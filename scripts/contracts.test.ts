/**
 * Contracts that are types or one definition, not strings a producer imitates for a consumer to recognise (issue 36).
 * Each check fails when a new copy appears (scripts/contracts.mjs says what each one looks for).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cdpMessageWriters, REF_GRAMMAR_HOME, refGrammarSites } from './contracts.mjs';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..');

describe('CDP failure kinds are made, not read back from words', () => {
  it("only the extension's cdp/ writes Chrome's words (cdpMessage) into an error, and only it makes a CdpFailure", () => {
    expect(cdpMessageWriters(repo)).toEqual([]);
  });
});

describe('one ref grammar', () => {
  it(`no pattern for a ref in the product's sources outside ${REF_GRAMMAR_HOME}: every reader uses what is there`, () => {
    expect(refGrammarSites(repo)).toEqual([]);
  });
});
