/** The pages' side of ui/messages.ts: one request to the service worker, one answer. */
import type { UiRequest, UiResponse } from './messages.js';

export async function request(message: UiRequest): Promise<UiResponse> {
  const answer: unknown = await chrome.runtime.sendMessage(message);
  if (typeof answer !== 'object' || answer === null || !('ok' in answer)) {
    return { ok: false, error: 'The chrome-relay service worker did not answer; reload the extension in chrome://extensions.' };
  }
  return answer as UiResponse;
}

/** Build an element with text content only (page titles and URLs are hostile input: never HTML). */
export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string, className?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className !== undefined) node.className = className;
  return node;
}

export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const node = document.getElementById(id);
  if (!(node instanceof type)) throw new Error(`chrome-relay: the page has no #${id}`);
  return node;
}
