// CodeMirror 6 with its basic setup: the editor is a contenteditable role="textbox" aria-multiline whose lines are
// <div class="cm-line">s (an empty line holds a <br>), highlighted by <span>s; the code to write is in a <pre> above.
import { basicSetup, EditorView } from 'codemirror';
import { record } from './shell.js';

const root = document.createElement('div');
root.id = 'root';
root.style.cssText = 'padding: 40px; width: 520px';
root.innerHTML = '<h1>Replace the code with the two lines below</h1><pre id="target"></pre><div id="editor"></div>';
document.body.append(root);
const target = root.querySelector('#target');
if (target !== null) target.textContent = 'const names = users.map((u) => u.name);\n  console.log(names.join(", "));';
new EditorView({
  doc: 'function greet(name) {\n  return "Hello, " + name;\n}\n\nexport default greet;\n',
  extensions: [basicSetup, EditorView.contentAttributes.of({ 'aria-label': 'Code editor' }), EditorView.updateListener.of((update) => update.docChanged && record('doc', update.state.doc.toString()))],
  parent: root.querySelector('#editor') ?? undefined,
});
