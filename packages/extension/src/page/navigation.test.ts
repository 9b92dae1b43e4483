import { describe, expect, it } from 'vitest';
import { classifyNavigationEvent } from './navigation.js';

const before = { frameId: 'MAIN', loaderId: 'L1' };
const event = (method: string, params: unknown, tabId = 7) => ({ tabId, method, params });

describe('classifyNavigationEvent', () => {
  it('counts a renderer-requested navigation of the main frame in this tab', () => {
    expect(classifyNavigationEvent(event('Page.frameRequestedNavigation', { frameId: 'MAIN', disposition: 'currentTab' }), 7, before)).toBe('started');
  });

  it('ignores new-tab and download dispositions, child frames and other tabs', () => {
    expect(classifyNavigationEvent(event('Page.frameRequestedNavigation', { frameId: 'MAIN', disposition: 'newTab' }), 7, before)).toBeNull();
    expect(classifyNavigationEvent(event('Page.frameRequestedNavigation', { frameId: 'MAIN', disposition: 'download' }), 7, before)).toBeNull();
    expect(classifyNavigationEvent(event('Page.frameRequestedNavigation', { frameId: 'CHILD', disposition: 'currentTab' }), 7, before)).toBeNull();
    expect(classifyNavigationEvent(event('Page.frameRequestedNavigation', { frameId: 'MAIN', disposition: 'currentTab' }, 8), 7, before)).toBeNull();
  });

  it('counts cross-document starts only (hash and history-API changes keep the document)', () => {
    const started = (navigationType: string) =>
      classifyNavigationEvent(event('Page.frameStartedNavigating', { frameId: 'MAIN', navigationType, url: 'u', loaderId: 'L2' }), 7, before);
    expect(started('differentDocument')).toBe('started');
    expect(started('reload')).toBe('started');
    expect(started('historyDifferentDocument')).toBe('started');
    expect(started('sameDocument')).toBeNull();
    expect(started('historySameDocument')).toBeNull();
  });

  it('counts a commit of a new document in the main frame', () => {
    expect(classifyNavigationEvent(event('Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L2' } }), 7, before)).toBe('committed');
    expect(classifyNavigationEvent(event('Page.frameNavigated', { frame: { id: 'MAIN', loaderId: 'L1' } }), 7, before)).toBeNull();
    expect(classifyNavigationEvent(event('Page.frameNavigated', { frame: { id: 'C', parentId: 'MAIN', loaderId: 'L9' } }), 7, before)).toBeNull();
    expect(classifyNavigationEvent(event('Page.navigatedWithinDocument', { frameId: 'MAIN' }), 7, before)).toBeNull();
  });
});
