/**
 * chrome.runtime.onMessage for the extension's own pages. Only pages of this extension are answered
 * (no web page can message us: no externally_connectable, no content scripts; checked anyway).
 */
import type { UiRequest, UiResponse } from './messages.js';
import { isUiRequest } from './messages.js';

export interface MessageSender {
  id?: string | undefined;
  url?: string | undefined;
}

/** A chrome.runtime.onMessage listener over `handle`; `ownOrigin` is chrome-extension://<id>/. */
export function uiMessageListener(
  ownId: () => string,
  ownOrigin: () => string,
  handle: (request: UiRequest) => Promise<UiResponse>,
): (message: unknown, sender: MessageSender, sendResponse: (response: UiResponse) => void) => boolean {
  return (message, sender, sendResponse) => {
    if (sender.id !== ownId() || sender.url === undefined || !sender.url.startsWith(ownOrigin())) return false;
    if (!isUiRequest(message)) {
      sendResponse({ ok: false, error: 'This extension page sent a request the service worker does not know; reload the extension.' });
      return false;
    }
    handle(message).then(sendResponse, (error: unknown) => {
      sendResponse({ ok: false, error: error instanceof Error ? error.message : String(error) });
    });
    // Keep the channel open for the asynchronous answer.
    return true;
  };
}
