/**
 * Workspace names → windows, in chrome.storage.session. A workspace is an unfocused normal window
 * chrome-relay opened for an agent; its record is re-checked against the live window on every read
 * (the human may close it), and records of vanished windows read as absent.
 */
import { reasonedError, RelayError } from '@chrome-relay/protocol';
import type { BrowserApi } from '../browserApi.js';
import type { OrganizeApi } from '../organizeApi.js';
import { Serial } from '../state/serial.js';

export const WORKSPACES_KEY = 'workspaces';

export interface WorkspaceRecord {
  name: string;
  windowId: number;
  owner: string | null;
}

export interface LiveWorkspace extends WorkspaceRecord {
  tabIds: number[];
  activeTabId: number | null;
}

function isRecord(value: unknown): value is WorkspaceRecord {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.name === 'string' && typeof v.windowId === 'number' && (v.owner === null || typeof v.owner === 'string');
}

export function workspaceNotFound(name: string): RelayError {
  return new RelayError('target_not_found', `Workspace "${name}" does not exist (or its window was closed); run \`chrome-relay workspace list\`, or create it with \`chrome-relay workspace create ${name}\`.`, {
    phase: 'resolve',
    details: { workspace: name },
  });
}

export class WorkspaceStore {
  readonly #browser: BrowserApi;
  readonly #organize: OrganizeApi;
  readonly #serial = new Serial();

  constructor(browser: BrowserApi, organize: OrganizeApi) {
    this.#browser = browser;
    this.#organize = organize;
  }

  /** Live workspaces only; records of closed windows are dropped. */
  async list(): Promise<LiveWorkspace[]> {
    const live: LiveWorkspace[] = [];
    for (const record of await this.#read()) {
      const window = await this.#organize.windowTabs(record.windowId);
      if (window) live.push({ ...record, ...window });
    }
    return live;
  }

  async get(name: string): Promise<LiveWorkspace> {
    const found = (await this.list()).find((w) => w.name === name);
    if (!found) throw workspaceNotFound(name);
    return found;
  }

  /** The workspace whose window holds this window id, if any. */
  async byWindow(windowId: number): Promise<WorkspaceRecord | undefined> {
    return (await this.#read()).find((w) => w.windowId === windowId);
  }

  /** Create under a new name; an existing live workspace of that name is target_conflict. */
  create(name: string, owner: string | null, url: string): Promise<LiveWorkspace> {
    return this.#serial.run(async () => {
      const live = await this.list();
      if (live.some((w) => w.name === name)) {
        throw reasonedError('target_conflict', 'name_taken', `Workspace "${name}" already exists; use it with --workspace ${name}, or pick another name.`, {
          phase: 'resolve',
          details: { workspace: name },
        });
      }
      const { windowId, tabId } = await this.#organize.createWindow(url);
      await this.#write([...live.map(({ name: n, windowId: w, owner: o }) => ({ name: n, windowId: w, owner: o })), { name, windowId, owner }]);
      return { name, windowId, owner, tabIds: [tabId], activeTabId: tabId };
    });
  }

  remove(name: string): Promise<void> {
    return this.#serial.run(async () => {
      await this.#write((await this.#read()).filter((w) => w.name !== name));
    });
  }

  async #read(): Promise<WorkspaceRecord[]> {
    const items = await this.#browser.storageSessionGet([WORKSPACES_KEY]);
    const value = items[WORKSPACES_KEY];
    return Array.isArray(value) ? value.filter(isRecord) : [];
  }

  async #write(records: WorkspaceRecord[]): Promise<void> {
    await this.#browser.storageSessionSet({ [WORKSPACES_KEY]: records });
  }
}
