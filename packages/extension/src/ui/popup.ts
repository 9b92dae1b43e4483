/**
 * The toolbar popup: connection, the tabs agents control, the last commands, and Pause. It asks the
 * service worker for the state once a second while open; every value is written as text.
 */
import type { ActivityEntry } from '../activity/activityLog.js';
import { byId, el, request } from './client.js';
import { ago, clock, limitsLine, outcomeText, statusLine } from './format.js';
import type { PopupState, TabRow } from './messages.js';

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

let current: PopupState | undefined;

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
  tr.append(cell(tab.lease ? el('span', tab.lease.owner, 'lease') : el('span', '—', 'sub')));
  const last = tab.running
    ? [el('div', `${tab.running.tool} (running)`, 'last-tool'), el('div', `${tab.running.agent ?? 'no agent name'} · ${ago(tab.running.at, now)}`, 'sub')]
    : tab.last
      ? [el('div', `${tab.last.tool} `, 'last-tool'), el('div', `${tab.last.agent ?? 'no agent name'} · ${ago(tab.last.at, now)}`, 'sub')]
      : [el('span', '—', 'sub')];
  if (!tab.running && tab.last) last[0]?.append(outcomePill(tab.last));
  tr.append(cell(...last));
  return tr;
}

function recentRow(entry: ActivityEntry): HTMLTableRowElement {
  const tr = el('tr');
  tr.append(cell(clock(entry.at)), cell(entry.agent ?? '—'), cell(entry.tool), cell(entry.tab === null ? '—' : `#${entry.tab}`), cell(outcomePill(entry)));
  tr.title = `${entry.ms} ms`;
  return tr;
}

function render(state: PopupState): void {
  current = state;
  const status = statusLine(state);
  statusEl.textContent = status.text;
  statusEl.className = `status ${status.tone}`;
  pauseButton.textContent = state.pause.paused ? 'Resume agents' : 'Pause agents';
  pauseButton.setAttribute('aria-pressed', String(state.pause.paused));
  banner.hidden = !state.pause.paused;
  tabsBody?.replaceChildren(...state.tabs.map((tab) => tabRow(tab, state.now)));
  tabsEmpty.hidden = state.tabs.length > 0;
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
  const answer = await request({ kind: 'state' });
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

void refresh();
setInterval(() => void refresh(), REFRESH_MS);
