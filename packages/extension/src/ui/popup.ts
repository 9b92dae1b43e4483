/**
 * The toolbar popup: connection, the tabs agents control, the last commands, and Pause. It asks the
 * service worker for the state once a second while open; every value is written as text.
 */
import type { ActivityEntry } from '../activity/activityLog.js';
import { byId, el, request } from './client.js';
import { agentFrom, ago, clock, limitsLine, outcomeText, statusLine, viaText } from './format.js';
import type { HereTab, PopupState, TabRow, UiRequest } from './messages.js';

const REFRESH_MS = 1000;

const statusEl = byId('status', HTMLParagraphElement);
const pauseButton = byId('pause', HTMLButtonElement);
const banner = byId('paused-banner', HTMLParagraphElement);
const tabsBody = byId('tabs', HTMLTableElement).tBodies[0];
const recentBody = byId('recent', HTMLTableElement).tBodies[0];
const tabsEmpty = byId('tabs-empty', HTMLParagraphElement);
const recentEmpty = byId('recent-empty', HTMLParagraphElement);
const connection = byId('connection', HTMLDListElement);
const limits = byId('limits', HTMLSpanElement);
const hereSection = byId('here-section', HTMLElement);
const hereTitle = byId('here-title', HTMLDivElement);
const hereStatus = byId('here-status', HTMLDivElement);
const hereShare = byId('here-share', HTMLButtonElement);
const workspaceLeases = byId('workspace-leases', HTMLParagraphElement);

let current: PopupState | undefined;
/** The tab in front of the person in this popup's window (the popup asks for its status). */
let hereTabId: number | undefined;

/** One request that changes something; the answer is rendered, a failure shown. */
function act(message: UiRequest, button: HTMLButtonElement): void {
  button.disabled = true;
  void request(message)
    .then((answer) => {
      if (answer.ok && 'state' in answer) render(answer.state);
      else if (!answer.ok) showError(answer.error);
    })
    .finally(() => {
      button.disabled = false;
    });
}

function freeButton(lease: { kind: 'tab' | 'workspace'; target: string; owner: string }): HTMLButtonElement {
  const button = el('button', 'Free', 'small');
  button.type = 'button';
  button.title = `Free this lease: ${lease.owner} loses its hold, and any agent may act here again`;
  button.dataset.lease = `${lease.kind}:${lease.target}`;
  button.addEventListener('click', () => act({ kind: 'freeLease', lease: { kind: lease.kind, target: lease.target } }, button));
  return button;
}

const HERE_TEXT: Readonly<Record<HereTab['status'], string>> = {
  opened: 'An agent opened this tab: agents may act here.',
  child: "An agent tab's page opened this tab: agents may act here.",
  shared: 'You shared this tab: agents may act here until you stop sharing. Stopping reloads the page, so nothing an agent left running in it stays.',
  group: 'This tab is in the "chrome-relay" tab group: agents may act here.',
  person: 'Your tab: agents cannot see or act in it.',
  extension: "An extension's page: never open to agents.",
};

function renderHere(here: HereTab | null): void {
  hereSection.hidden = here === null;
  if (here === null) return;
  hereTitle.textContent = here.title || '(untitled)';
  hereStatus.textContent = HERE_TEXT[here.status];
  hereShare.hidden = here.status !== 'person' && here.status !== 'shared';
  hereShare.textContent = here.status === 'shared' ? 'Stop sharing' : 'Let agents use this tab';
  hereShare.dataset.tab = String(here.id);
  hereShare.dataset.shared = String(here.status === 'shared');
}

function outcomePill(entry: Pick<ActivityEntry, 'outcome' | 'reason'>): HTMLElement {
  return el('span', outcomeText(entry), entry.outcome === 'ok' ? 'pill on' : entry.reason === 'paused_by_user' ? 'pill warn' : 'pill err');
}

function cell(...children: (Node | string)[]): HTMLTableCellElement {
  const td = el('td');
  td.append(...children);
  return td;
}

function tabRow(tab: TabRow, now: number): HTMLTableRowElement {
  const tr = el('tr');
  tr.dataset.tab = String(tab.id);
  const title = el('div', tab.title || '(untitled)', 'tab-title');
  title.title = tab.title;
  const url = el('div', `#${tab.id} · ${tab.url}`, 'tab-url');
  url.title = tab.url;
  tr.append(cell(title, url));
  tr.append(cell(el('span', tab.attached ? 'attached' : 'detached', tab.attached ? 'pill on' : 'pill')));
  tr.append(cell(...(tab.lease ? [el('span', tab.lease.owner, 'lease'), freeButton({ kind: 'tab', target: String(tab.id), owner: tab.lease.owner })] : [el('span', '—', 'sub')])));
  const last = tab.running
    ? [el('div', `${tab.running.tool} (running)`, 'last-tool'), el('div', `${agentFrom(tab.running)} · ${ago(tab.running.at, now)}`, 'sub')]
    : tab.last
      ? [el('div', `${tab.last.tool} `, 'last-tool'), el('div', `${agentFrom(tab.last)} · ${ago(tab.last.at, now)}`, 'sub')]
      : [el('span', '—', 'sub')];
  if (!tab.running && tab.last) last[0]?.append(outcomePill(tab.last));
  tr.append(cell(...last));
  return tr;
}

function recentRow(entry: ActivityEntry): HTMLTableRowElement {
  const tr = el('tr');
  // Where the agent runs: this machine, or the bridge its call came through (the person may turn those off).
  const from = cell(viaText(entry.via));
  from.title = viaText(entry.via);
  if (entry.via !== undefined) from.className = 'via';
  tr.append(cell(clock(entry.at)), cell(entry.agent ?? '—'), cell(entry.tool), cell(entry.tab === null ? '—' : `#${entry.tab}`), cell(outcomePill(entry)), from);
  tr.title = `${entry.ms} ms`;
  return tr;
}

function render(state: PopupState): void {
  current = state;
  // A tab taken back lives on under a new id (policy/agentPages.ts): follow it.
  if (state.here !== null) hereTabId = state.here.id;
  const status = statusLine(state);
  statusEl.textContent = status.text;
  statusEl.className = `status ${status.tone}`;
  pauseButton.textContent = state.pause.paused ? 'Resume agents' : 'Pause agents';
  pauseButton.setAttribute('aria-pressed', String(state.pause.paused));
  banner.hidden = !state.pause.paused;
  tabsBody?.replaceChildren(...state.tabs.map((tab) => tabRow(tab, state.now)));
  tabsEmpty.hidden = state.tabs.length > 0;
  workspaceLeases.replaceChildren(
    ...state.workspaceLeases.flatMap((lease) => [el('span', `Workspace "${lease.target}" is leased by ${lease.owner}`, 'sub'), freeButton({ kind: 'workspace', ...lease }), el('br')]),
  );
  renderHere(state.here);
  recentBody?.replaceChildren(...state.recent.map(recentRow));
  recentEmpty.hidden = state.recent.length > 0;
  const host = state.connection.host;
  const rows: [string, string][] = [
    ['Native host', host ? `${host.version} (pid ${host.pid})` : 'not connected'],
    ['CLI', state.connection.cli ?? 'no call yet'],
    ['Extension', state.connection.extension.version],
  ];
  connection.replaceChildren(...rows.flatMap(([term, value]) => [el('dt', term), el('dd', value)]));
  limits.textContent = limitsLine(state);
}

function showError(message: string): void {
  statusEl.textContent = message;
  statusEl.className = 'status disconnected';
}

async function refresh(): Promise<void> {
  if (hereTabId === undefined) {
    // The popup belongs to one window; the tab in front there is the one the person looks at.
    const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
    hereTabId = tab?.id;
  }
  const answer = await request(hereTabId === undefined ? { kind: 'state' } : { kind: 'state', here: hereTabId });
  if (answer.ok && 'state' in answer) render(answer.state);
  else if (!answer.ok) showError(answer.error);
}

pauseButton.addEventListener('click', () => {
  pauseButton.disabled = true;
  void request({ kind: 'setPaused', paused: !(current?.pause.paused ?? false) })
    .then((answer) => {
      if (answer.ok && 'state' in answer) render(answer.state);
      else if (!answer.ok) showError(answer.error);
    })
    .finally(() => {
      pauseButton.disabled = false;
    });
});

hereShare.addEventListener('click', () => {
  const tab = Number(hereShare.dataset.tab);
  act({ kind: 'share', tab, shared: hereShare.dataset.shared !== 'true' }, hereShare);
});

void refresh();
setInterval(() => void refresh(), REFRESH_MS);
