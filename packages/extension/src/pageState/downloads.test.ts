import { describe, expect, it } from 'vitest';
import { createFakeEnvironment } from '../testing/fakeChrome.js';
import { armDir, armedDir, DownloadTracker, type DownloadsApi } from './downloads.js';

function item(overrides: Partial<chrome.downloads.DownloadItem>): chrome.downloads.DownloadItem {
  return {
    id: 1,
    url: 'https://a.test/f.bin',
    finalUrl: 'https://a.test/f.bin',
    referrer: '',
    filename: '/home/u/Downloads/f.bin',
    incognito: false,
    danger: 'safe',
    mime: 'application/octet-stream',
    startTime: '2026-01-01T00:00:00.000Z',
    state: 'complete',
    paused: false,
    canResume: false,
    bytesReceived: 3,
    totalBytes: 3,
    fileSize: 3,
    exists: true,
    ...overrides,
  } as chrome.downloads.DownloadItem;
}

describe('DownloadTracker', () => {
  it('follows a tab download from CDP events and finds its saved path once', async () => {
    const env = createFakeEnvironment();
    const items = [item({ id: 7 })];
    const api: DownloadsApi = { search: async (query) => items.filter((i) => i.url === query.url || i.finalUrl === query.finalUrl) };
    const tracker = new DownloadTracker(env.cdp, api);
    const waiting = tracker.waitForFinished(5, Date.now() + 1_000);
    env.debugger.emit(5, 'Page.downloadWillBegin', { guid: 'g', url: 'https://a.test/f.bin', suggestedFilename: 'f.bin', frameId: 'F' });
    env.debugger.emit(6, 'Page.downloadWillBegin', { guid: 'other', url: 'https://b.test/x', suggestedFilename: 'x', frameId: 'F' });
    env.debugger.emit(5, 'Page.downloadProgress', { guid: 'g', state: 'completed', receivedBytes: 3, totalBytes: 3 });
    const done = await waiting;
    expect(done).toMatchObject({ tabId: 5, suggestedFilename: 'f.bin', state: 'completed', bytes: 3 });
    if (!done) throw new Error('no download');
    expect(await tracker.savedPath(done, Date.now() + 500)).toBe('/home/u/Downloads/f.bin');
    // The same chrome.downloads item is never handed out twice.
    expect(await tracker.savedPath(done, Date.now() + 150)).toBeUndefined();
  });

  it('answers undefined at the deadline when nothing finished', async () => {
    const env = createFakeEnvironment();
    const tracker = new DownloadTracker(env.cdp, { search: async () => [] });
    expect(await tracker.waitForFinished(5, Date.now() + 30)).toBeUndefined();
  });

  it('keeps armed directories per tab in session storage', async () => {
    const env = createFakeEnvironment();
    await armDir(env.ctx, 5, '/tmp/out');
    await armDir(env.ctx, 6, '/tmp/other');
    expect(await armedDir(env.ctx, 5)).toBe('/tmp/out');
    expect(await armedDir(env.ctx, 7)).toBeNull();
  });
});
