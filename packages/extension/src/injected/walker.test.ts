// @vitest-environment happy-dom
/**
 * The snapshot walk on real DOM trees (happy-dom computes styles; boxes and initial style values come from testing/fakeRendering.ts). happy-dom
 * has no user-agent styles for `white-space` or `font-weight`, so the fixtures state those they rely on.
 */
import { describe, expect, it } from 'vitest';
import { useFakeRendering } from '../testing/fakeRendering.js';
import type { PageNode } from './types.js';
import { Walker } from './walker.js';

useFakeRendering();

/** Render the page, let `setup` finish it (shadow roots), and walk it. */
function walk(html: string, setup?: () => void): PageNode[] {
  document.body.innerHTML = html;
  setup?.();
  return new Walker().walkDocument().tree;
}

/** One line per node, as an agent reads it (role, name, states that matter here, value), children indented. */
function lines(tree: readonly PageNode[], depth = 0, out: string[] = []): string[] {
  for (const node of tree) {
    let line = `${'  '.repeat(depth)}${node.role === 'text' ? '' : `${node.role} `}${node.name === undefined ? '' : JSON.stringify(node.name)}`.trimEnd();
    if (node.checked !== undefined) line += ` checked=${node.checked}`;
    if (node.min !== undefined || node.max !== undefined) line += ` range=${node.min ?? ''}..${node.max ?? ''}`;
    if (node.value !== undefined) line += `: ${JSON.stringify(node.value)}`;
    out.push(line);
    if (node.children !== undefined) lines(node.children, depth + 1, out);
  }
  return out;
}

const shadow = (selector: string, html: string) => (): void => {
  for (const host of document.querySelectorAll(selector)) host.attachShadow({ mode: 'open' }).innerHTML = html;
};

describe('controls whose only content is aria-hidden', () => {
  it('an ARIA button showing an aria-hidden SVG is drawn, so it is in the tree, named', () => {
    const tree = walk('<div role="button" aria-label="Remove Peach" tabindex="0"><svg aria-hidden="true" data-box="0 0 14 14"></svg></div>');
    expect(lines(tree)).toEqual(['button "Remove Peach"']);
  });

  it('a slider whose stars are aria-hidden custom elements drawing an SVG in their shadow root', () => {
    const tree = walk(
      '<span role="slider" aria-label="Rating" aria-valuenow="2" aria-valuemin="0" aria-valuemax="5" tabindex="0"><span role="presentation"><x-star aria-hidden="true"></x-star></span></span>',
      shadow('x-star', '<svg data-box="0 0 16 16"></svg>'),
    );
    expect(lines(tree)).toEqual(['slider "Rating" range=0..5: "2"']);
  });

  it('aria-hidden content that draws nothing does not make a control visible', () => {
    expect(walk('<div role="button" aria-label="Ghost" tabindex="0"><span aria-hidden="true"></span></div>')).toEqual([]);
    expect(walk('<div role="button" aria-label="Ghost" tabindex="0"><svg aria-hidden="true" style="opacity: 0"></svg></div>')).toEqual([]);
    // An icon moved out of the document, or faded inside its aria-hidden wrapper, draws nothing a person sees.
    expect(walk('<div role="button" aria-label="Ghost" tabindex="0"><span aria-hidden="true"><svg style="position: absolute" data-box="-9999 0 16 16"></svg></span></div>')).toEqual([]);
    expect(walk('<div role="button" aria-label="Ghost" tabindex="0"><span aria-hidden="true"><span style="opacity: 0.05"><svg data-box="0 0 16 16"></svg></span></span></div>')).toEqual([]);
    expect(walk('<div role="button" aria-label="Ghost" tabindex="0"><span aria-hidden="true" style="font-size: 2px">x</span></div>')).toEqual([]);
  });

  it('aria-hidden content stays out of the tree and out of names', () => {
    const tree = walk('<button>Save<span aria-hidden="true">★</span></button><p>Seen<span aria-hidden="true">Unseen</span></p>');
    expect(lines(tree)).toEqual(['button "Save"', '"Seen"']);
  });
});

describe('names from labels', () => {
  it('<label for> names a button-type switch and checkbox before their own text', () => {
    const tree = walk(
      '<label for="s1">Weekly digest</label><button role="switch" id="s1" aria-checked="true">on</button>' +
        '<button role="checkbox" id="c1" aria-checked="false" style="border-width: 1px"></button><label for="c1">Accept terms</label>',
    );
    expect(lines(tree)).toEqual(['switch "Weekly digest" checked=true', 'checkbox "Accept terms" checked=false']);
  });

  it('a button with no label keeps its content name; a label with no text leaves it', () => {
    expect(lines(walk('<button>Send</button><label for="b"><input></label><button id="b">Go</button>'))).toContain('button "Go"');
  });

  it('text slotted into a shadow-DOM label names its checkbox', () => {
    const tree = walk('<x-cb>Gift wrap</x-cb>', shadow('x-cb', '<label><input type="checkbox" data-box="0 0 16 16"><span><slot></slot></span></label>'));
    expect(lines(tree)).toEqual(['checkbox "Gift wrap" checked=false']);
  });

  it("slotted text through nested slots, and a slot's fallback when nothing is slotted", () => {
    const label = '<label><input type="checkbox" data-box="0 0 16 16"><slot>Fallback</slot></label>';
    const tree = walk('<x-outer>Deep</x-outer><x-cb></x-cb>', () => {
      shadow('x-outer', '<x-cb><slot></slot></x-cb>')();
      document.querySelector('x-outer')?.shadowRoot?.querySelector('x-cb')?.attachShadow({ mode: 'open' }).append(document.createRange().createContextualFragment(label));
      shadow('body > x-cb', label)();
    });
    expect(lines(tree)).toEqual(['checkbox "Deep" checked=false', 'checkbox "Fallback" checked=false']);
  });
});

describe('a native control hidden under a drawing of its own', () => {
  const clipped = 'position: absolute; clip: rect(0px, 0px, 0px, 0px); width: 20px; height: 20px';

  it('a clipped range input inside a drawn thumb is a slider with its name, value and range', () => {
    const tree = walk(`<span style="background: blue" data-box="40 40 20 20"><input type="range" aria-label="Volume" value="20" style="${clipped}" data-box="40 40 20 20"></span>`);
    expect(lines(tree)).toEqual(['slider "Volume" range=0..100: "20"']);
  });

  it('a one-pixel input inside its handle counts too; min and max come from the input', () => {
    const tree = walk(`<div data-box="10 10 24 24" style="background: red"><input type="range" min="-5" max="5" value="1" aria-label="Balance" data-box="10 10 1 1"></div>`);
    expect(lines(tree)).toEqual(['slider "Balance" range=-5..5: "1"']);
  });

  it('no part stands for it when the drawing also holds another control, or is a region rather than a handle', () => {
    expect(walk(`<span data-box="40 40 20 20" style="background: blue"><input type="range" aria-label="Decoy" style="${clipped}" data-box="40 40 20 20"><button data-box="40 40 10 10" aria-label="Other" style="background-color: red"></button></span>`).map((n) => n.name)).toEqual(['Other']);
    expect(walk(`<div data-box="0 0 400 200" style="background: #eee"><input type="checkbox" aria-label="Hidden" style="${clipped}" data-box="10 10 20 20"></div>`)).toEqual([]);
  });
});

describe('text keeps its structure', () => {
  it('pre-formatted text keeps its line breaks and indentation; ordinary text collapses', () => {
    const tree = walk('<pre style="white-space: pre">function f() {\n  return 1;\n}\n</pre><p>  two   spaces\n here </p>');
    expect(tree.map((node) => node.name)).toEqual(['function f() {\n  return 1;\n}', 'two spaces here']);
  });

  it('highlighted code keeps the whitespace between its spans', () => {
    const tree = walk('<pre style="white-space: pre"><span>if</span> (x) {\n    <span>go</span>();\n}</pre>');
    expect(tree.map((node) => node.name)).toEqual(['if (x) {\n    go();\n}']);
  });

  it('a <br> breaks the line; pre-line keeps breaks but collapses spaces', () => {
    const tree = walk('<p>221B Baker Street<br>London</p><div style="white-space: pre-line">a    b\n   c</div>');
    expect(tree.map((node) => node.name)).toEqual(['221B Baker Street\nLondon', 'a b\nc']);
  });

  it("a code editor's lines are its value, one per line block, an empty line's <br> one empty line", () => {
    const tree = walk(
      '<div contenteditable="true" role="textbox" aria-multiline="true" aria-label="Code" style="white-space: pre">' +
        '<div>alpha();</div><div>  beta();</div><div><br></div><div>gamma();</div><div><br></div></div>',
    );
    expect(lines(tree)).toEqual(['textbox "Code": "alpha();\\n  beta();\\n\\ngamma();\\n"']);
  });

  it("a rich-text field's bold and italic runs are listed under it; its value is its text", () => {
    const tree = walk(
      '<div contenteditable="true" role="textbox" aria-label="Notes" style="white-space: pre-wrap">' +
        '<p>A <strong style="font-weight: 700">careful</strong> <b style="font-weight: 700">plan</b>.<br></p><p>Keep it <em style="font-style: italic">short</em>.</p></div>',
    );
    expect(lines(tree)).toEqual(['textbox "Notes": "A careful plan.\\nKeep it short."', '  strong "careful plan"', '  emphasis "short"']);
  });

  it('a field whose own text is bold, or a heading in it, lists no bold runs: emphasis is text unlike its block', () => {
    expect(lines(walk('<div contenteditable="true" role="textbox" aria-label="Title" style="font-weight: 700"><p>All bold</p></div>'))).toEqual(['textbox "Title": "All bold"']);
    const tree = walk(
      '<div contenteditable="true" role="textbox" aria-label="Doc"><h2 style="font-weight: 700; display: block">Plan</h2><p style="display: block">Step <b style="font-weight: 700">one</b></p></div>',
    );
    expect(lines(tree)).toEqual(['textbox "Doc": "Plan\\nStep one"', '  strong "one"']);
  });

  it('lists at most 20 runs, and says how many more there are', () => {
    // Each run in two elements: still one run, counted once.
    const words = Array.from({ length: 23 }, (_, i) => `<p>w${i} <b style="font-weight: 700">b${i}</b><b style="font-weight: 700">x</b></p>`).join('');
    const tree = walk(`<div contenteditable="true" role="textbox" aria-label="Long">${words}</div>`);
    const runs = tree[0]?.children ?? [];
    expect(runs).toHaveLength(21);
    expect(runs[19]).toEqual({ role: 'strong', name: 'b19x' });
    expect(runs[20]).toEqual({ role: 'elided', name: '3 more bold or italic runs not listed' });
  });

  it('a field is named by the short line before it, never by an editor or a block of several lines', () => {
    expect(lines(walk('<div><span>Departure</span><input></div>'))).toEqual(['"Departure"', 'textbox "Departure"']);
    expect(lines(walk('<div><span>Arrival</span><span aria-hidden="true">12</span><input></div>'))).toEqual(['"Arrival"', 'textbox "Arrival"']);
    expect(lines(walk('<div><div contenteditable="true" role="textbox" aria-label="First"><p>Short</p></div><div contenteditable="true" role="textbox"><p><br></p></div></div>'))).toEqual([
      'textbox "First": "Short"',
      'textbox',
    ]);
    // (happy-dom's innerText ignores white-space: a <br> makes the two lines here.)
    expect(lines(walk('<div><p>221B Baker Street<br>London</p><input></div>'))).toEqual(['"221B Baker Street\\nLondon"', 'textbox']);
  });
});
