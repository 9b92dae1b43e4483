import { describe, expect, it } from 'vitest';
import { holdsTyped, joinPieces, keptText, mayKeepSpaces, spacesOf } from './text.js';

describe('whitespace modes', () => {
  it('white-space-collapse where the browser has it, white-space otherwise', () => {
    expect(spacesOf({ whiteSpace: 'pre', whiteSpaceCollapse: 'preserve' })).toBe('preserve');
    expect(spacesOf({ whiteSpace: '', whiteSpaceCollapse: 'break-spaces' })).toBe('preserve');
    expect(spacesOf({ whiteSpace: 'pre-line', whiteSpaceCollapse: 'preserve-breaks' })).toBe('breaks');
    expect(spacesOf({ whiteSpace: 'nowrap', whiteSpaceCollapse: 'collapse' })).toBe('collapse');
    expect(spacesOf({ whiteSpace: 'pre-wrap' })).toBe('preserve');
    expect(spacesOf({ whiteSpace: 'pre-line' })).toBe('breaks');
    expect(spacesOf({ whiteSpace: 'normal' })).toBe('collapse');
  });

  it('only text with whitespace a mode could keep asks for the mode', () => {
    expect(mayKeepSpaces('plain words')).toBe(false);
    for (const data of ['a\nb', '\tx', 'a  b', ' lead', 'trail ']) expect(mayKeepSpaces(data)).toBe(true);
  });

  it('pre-line collapses spaces and keeps line breaks; pre keeps everything', () => {
    expect(keptText('a   b \n  c\r\nd', 'breaks')).toBe('a b\nc\nd');
    expect(keptText('  a\r\n\tb ', 'preserve')).toBe('  a\n\tb ');
  });
});

describe('a run of text from its pieces', () => {
  it('collapses and trims when nothing is kept', () => {
    expect(joinPieces([{ text: '  200 ', kept: false }, { text: ' g\n', kept: false }])).toBe('200 g');
  });

  it('keeps kept pieces as written: the first line its indentation, not blank lines before it or spaces after', () => {
    expect(joinPieces([{ text: '\n  if (x) {\n    go();   \n  }\n\n', kept: true }])).toBe('  if (x) {\n    go();\n  }');
  });

  it('collapses the loose pieces among the kept ones', () => {
    expect(joinPieces([{ text: '  221B   Baker ', kept: false }, { text: '\n', kept: true }, { text: 'London  NW1 ', kept: false }])).toBe('221B Baker\nLondon NW1');
  });
});

describe('holdsTyped: a rich-text field holds what was typed into it, line for line', () => {
  it('exactly, or apart from what nobody sees: line endings, no-break spaces, spaces ending a line, blank lines at the end', () => {
    expect(holdsTyped('First line\nSecond line', 'First line\nSecond line')).toBe(true);
    expect(holdsTyped('a\nb', 'a\r\nb')).toBe(true);
    expect(holdsTyped('two \u00a0spaces', 'two  spaces')).toBe(true);
    expect(holdsTyped('a\nb', 'a  \nb')).toBe(true);
    expect(holdsTyped('code();\n', 'code();')).toBe(true);
    expect(holdsTyped('  indented();\n    more();', '  indented();\n    more();')).toBe(true);
  });

  it('not when a line break was dropped or turned into a space, indentation lost, or a character changed or missing', () => {
    expect(holdsTyped('First line Second line', 'First line\nSecond line')).toBe(false);
    expect(holdsTyped('First lineSecond line', 'First line\nSecond line')).toBe(false);
    expect(holdsTyped('indented();', '  indented();')).toBe(false);
    expect(holdsTyped('a\n\nb', 'a\nb')).toBe(false);
    expect(holdsTyped('Hello, worl', 'Hello, world')).toBe(false);
    expect(holdsTyped('one space', 'one  space')).toBe(false);
  });
});

