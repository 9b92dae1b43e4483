// Contracts that must be types or one definition, not strings copied from file to file (issue 36), as figures any
// revision can be measured by (scripts/contracts.test.ts fails on a new copy; scripts/floorFigures.mjs prints them):
// - refGrammarSites: the ref grammar (`@e12`, `e12`) is written once, in packages/protocol/src/refs.ts; every other
//   pattern for a ref in the product's sources (packages/*/src, tests left out) is a second grammar, free to disagree;
// - cdpMessageWriters: a CDP failure's kind is set where the error is made (extension cdp/failures.ts CdpFailure);
//   only cdp/ writes Chrome's words (`cdpMessage`) into an error, or makes a CdpFailure — anywhere else is a producer
//   imitating a kind for the classifier.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** The one file allowed to spell the ref grammar. */
export const REF_GRAMMAR_HOME = 'packages/protocol/src/refs.ts';

/** The product's non-test TypeScript sources under root: packages/<name>/src. */
function productSources(root) {
  const packages = join(root, 'packages');
  if (!existsSync(packages)) return [];
  const walk = (dir) =>
    readdirSync(dir).flatMap((name) => {
      const path = join(dir, name);
      if (name === 'node_modules' || name === 'dist' || name === 'testing') return [];
      return statSync(path).isDirectory() ? walk(path) : name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts') ? [path] : [];
    });
  return readdirSync(packages)
    .map((name) => join(packages, name, 'src'))
    .filter((dir) => existsSync(dir))
    .flatMap(walk);
}

/**
 * A pattern that matches refs: `e` followed by a digit class, in a regex literal or in a string built into one —
 * `/^@?e[1-9][0-9]*$/`, `'e\\d+'`, `e[0-9]{1,15}`.
 */
const REF_PATTERN = /e(?:\[1-9\]|\[0-9\]|\\\\?d)/;

/** The regex literals and strings of a source file (comments never count), each with its line. */
function literals(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found = [];
  const visit = (node) => {
    if (ts.isRegularExpressionLiteral(node) || ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      found.push({ text: node.getText(source), line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Files of the product, other than the grammar's home, that spell a ref pattern of their own: `path:line` each. */
export function refGrammarSites(root) {
  const sites = [];
  for (const path of productSources(root)) {
    const file = relative(root, path);
    if (file === REF_GRAMMAR_HOME) continue;
    for (const { text, line } of literals(path)) if (REF_PATTERN.test(text)) sites.push(`${file}:${line}`);
  }
  return sites;
}

/** Source text without comments, so a sentence about cdpMessage is not a write of one. */
function code(path) {
  const text = readFileSync(path, 'utf8');
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  let out = '';
  for (let token = scanner.scan(); token !== ts.SyntaxKind.EndOfFileToken; token = scanner.scan()) out += scanner.getTokenText();
  return out;
}

/** Files of the extension outside cdp/ that write Chrome's words into an error or make a CdpFailure. */
export function cdpMessageWriters(root) {
  const extension = join(root, 'packages/extension/src');
  return productSources(root)
    .filter((path) => path.startsWith(extension) && !relative(extension, path).startsWith('cdp/'))
    .filter((path) => /\bcdpMessage\s*[:,}]|new CdpFailure\(/.test(code(path)))
    .map((path) => relative(root, path));
}
