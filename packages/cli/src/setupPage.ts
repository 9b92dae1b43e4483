/**
 * The page `setup` opens in the person's browser. Chrome opens no chrome:// page given on its command
 * line (startup ValidateUrl allows only the settings-reset page: verified with Chromium 156, which
 * shows a new tab instead), so setup cannot open chrome://extensions itself. It opens this local page
 * with the three steps and copy buttons for `chrome://extensions` and the extension folder instead.
 */

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

export function setupPageHtml(extensionDir: string): string {
  const dir = escapeHtml(extensionDir);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Load the chrome-relay extension</title>
<style>
body { font: 15px/1.5 system-ui, sans-serif; max-width: 44em; margin: 3em auto; color: #202124; }
code { background: #f1f3f4; padding: 2px 6px; border-radius: 4px; word-break: break-all; }
li { margin: 0.8em 0; } button { margin-left: 0.5em; font: inherit; }
.note { color: #5f6368; }
</style></head>
<body>
<h1>Load the chrome-relay extension</h1>
<ol>
  <li>Open <code id="page">chrome://extensions</code><button data-copy="page">Copy</button> — paste it into the address bar
    (Chrome lets no other program open that page for you).</li>
  <li>Turn on <strong>Developer mode</strong> (the switch at the top right).</li>
  <li>Click <strong>Load unpacked</strong> and choose the folder <code id="dir">${dir}</code><button data-copy="dir">Copy</button><br>
    <span class="note">It is in a hidden folder, which the folder picker does not list: in the picker press <kbd>Ctrl</kbd>+<kbd>L</kbd>
    (<kbd>⌘</kbd><kbd>⇧</kbd><kbd>G</kbd> on macOS) and paste the path.</span></li>
</ol>
<p class="note">chrome-relay then shows a button in the toolbar: the tabs agents control, every command they run, and
Pause. The terminal running <code>chrome-relay setup</code> says when the extension has connected; you can close this page.</p>
<script>
for (const button of document.querySelectorAll('button[data-copy]')) {
  button.addEventListener('click', async () => {
    const text = document.getElementById(button.dataset.copy).textContent;
    try { await navigator.clipboard.writeText(text); button.textContent = 'Copied'; }
    catch { getSelection().selectAllChildren(document.getElementById(button.dataset.copy)); button.textContent = 'Selected: press Ctrl+C'; }
  });
}
</script>
</body></html>
`;
}
