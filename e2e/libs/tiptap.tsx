// TipTap 3 (ProseMirror): a rich-text field whose paragraphs are <p>s and whose marks are <strong>/<em>, with a Bold
// button as editors have; a second, unlabelled editor right below the first.
import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';
import { record } from './shell.js';

const root = document.createElement('div');
root.id = 'root';
root.style.cssText = 'padding: 40px; width: 520px';
root.innerHTML = '<div class="toolbar"><button type="button" id="bold">Bold</button></div><div id="notes"></div><div id="summary"></div>';
document.body.append(root);
const frame = 'border: 1px solid #999; padding: 6px; margin: 8px 0; min-height: 24px';
const notes = new Editor({
  element: root.querySelector('#notes') ?? undefined,
  extensions: [StarterKit],
  content: '<p>Every release needs a <strong>careful</strong> changelog.</p><p>Keep it <em>short</em>.</p>',
  editorProps: { attributes: { 'aria-label': 'Notes', style: frame } },
  onUpdate: ({ editor }) => record('notes', editor.getHTML()),
});
new Editor({ element: root.querySelector('#summary') ?? undefined, extensions: [StarterKit], editorProps: { attributes: { style: frame } } });
root.querySelector('#bold')?.addEventListener('click', () => notes.chain().focus().toggleBold().run());
