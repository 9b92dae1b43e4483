/** The options page: block list, "agent tabs only", agents on other machines, local files, agents' JavaScript, idle detach. The service worker validates and stores. */
import { byId, el, request } from './client.js';

const form = byId('settings', HTMLFormElement);
const blocked = byId('blocked', HTMLTextAreaElement);
const agentTabsOnly = byId('agent-tabs-only', HTMLInputElement);
const agentFiles = byId('agent-files', HTMLInputElement);
const agentJs = byId('agent-js', HTMLInputElement);
const idle = byId('idle', HTMLInputElement);
const remoteAgents = byId('remote-agents', HTMLInputElement);
const problems = byId('problems', HTMLUListElement);
const saved = byId('saved', HTMLSpanElement);

function say(text: string, error = false): void {
  saved.textContent = text;
  saved.className = error ? 'saved error' : 'saved';
}

async function load(): Promise<void> {
  const answer = await request({ kind: 'settings' });
  if (!answer.ok) return say(answer.error, true);
  if (!('settings' in answer)) return;
  blocked.value = answer.settings.blockedSites.join('\n');
  agentTabsOnly.checked = answer.settings.agentTabsOnly;
  agentFiles.checked = answer.settings.agentFiles;
  agentJs.checked = answer.settings.agentJs;
  idle.value = String(answer.settings.idleDetachSeconds);
  remoteAgents.checked = answer.settings.remoteAgents;
}

form.addEventListener('submit', (event) => {
  event.preventDefault();
  problems.replaceChildren();
  say('Saving…');
  const settings = {
    blockedSites: blocked.value.split('\n'),
    agentTabsOnly: agentTabsOnly.checked,
    idleDetachSeconds: Number(idle.value),
    remoteAgents: remoteAgents.checked,
    agentFiles: agentFiles.checked,
    agentJs: agentJs.checked,
  };
  void request({ kind: 'saveSettings', settings }).then((answer) => {
    if (answer.ok) {
      say('Saved.');
      void load();
      return;
    }
    say(answer.error, true);
    problems.replaceChildren(...(answer.problems ?? []).map((p) => el('li', p.line === '' ? p.problem : `${p.line}: ${p.problem}`)));
  });
});

void load();
