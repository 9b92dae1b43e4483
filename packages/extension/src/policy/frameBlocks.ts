/**
 * The site block list applied to the frames of a page (pure, unit-tested). A frame is blocked when its own URL
 * matches a rule, and so is every frame inside a blocked one, whatever it shows: it is drawn as part of the blocked
 * site's page (an about:blank or srcdoc frame of the bank's page holds the bank's content), and chrome-relay never
 * enters the blocked frame, so it could not even place it.
 */
import { blockingRule, type SiteRule } from './sitePatterns.js';

/** Why a frame is off limits: the rule as the person wrote it, and the URL it matched (the frame's own, or that of the blocked frame it sits in). */
export interface SiteBlock {
  rule: string;
  url: string;
}

interface FrameLike {
  frameId: string;
  parentId?: string;
  url: string;
}

/** The rule a URL falls under, as a SiteBlock; undefined when none does. */
export function siteBlockOf(rules: readonly SiteRule[], url: string): SiteBlock | undefined {
  const blocked = blockingRule(rules, [url]);
  return blocked === undefined ? undefined : { rule: blocked.rule.text, url: blocked.url };
}

/** Each blocked frame's SiteBlock, by frame id (a frame inside a blocked one gets that frame's). */
export function frameBlocks(frames: readonly FrameLike[], rules: readonly SiteRule[]): Map<string, SiteBlock> {
  const blocks = new Map<string, SiteBlock>();
  if (rules.length === 0) return blocks;
  const byId = new Map(frames.map((frame) => [frame.frameId, frame]));
  const decided = new Map<string, SiteBlock | undefined>();
  const decide = (frame: FrameLike, depth: number): SiteBlock | undefined => {
    if (decided.has(frame.frameId)) return decided.get(frame.frameId);
    const parent = frame.parentId === undefined ? undefined : byId.get(frame.parentId);
    // A parent chain longer than the list is a cycle (a malformed tree): it is judged by its own URL alone.
    const inherited = parent === undefined || depth > frames.length ? undefined : decide(parent, depth + 1);
    const block = inherited ?? siteBlockOf(rules, frame.url);
    decided.set(frame.frameId, block);
    return block;
  };
  for (const frame of frames) {
    const block = decide(frame, 0);
    if (block !== undefined) blocks.set(frame.frameId, block);
  }
  return blocks;
}

/**
 * Frames whose document reads that descend into child documents (DOMDebugger.getEventListeners with `pierce`) would
 * reach a blocked frame: those it sits under within one process (one CDP session). An out-of-process frame is a
 * document of its own to such a read, so the climb stops at a session boundary.
 */
export function framesAroundBlocked(frames: readonly (FrameLike & { sessionId?: string; blocked?: SiteBlock })[]): Set<string> {
  const byId = new Map(frames.map((frame) => [frame.frameId, frame]));
  const around = new Set<string>();
  for (const blocked of frames) {
    if (blocked.blocked === undefined) continue;
    let parent = blocked.parentId === undefined ? undefined : byId.get(blocked.parentId);
    for (let steps = 0; parent !== undefined && parent.sessionId === blocked.sessionId && steps <= frames.length; steps++) {
      around.add(parent.frameId);
      parent = parent.parentId === undefined ? undefined : byId.get(parent.parentId);
    }
  }
  return around;
}

/** Pure: the URL's origin for messages about a blocked frame ('' when it has none): its path may hold what the person wanted hidden. */
export function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.origin !== 'null') return parsed.origin;
    // Schemes the URL standard does not know (chrome-extension:) have an opaque origin there, not in Chrome.
    return parsed.host === '' ? '' : `${parsed.protocol}//${parsed.host}`;
  } catch {
    return '';
  }
}
