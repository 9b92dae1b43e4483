/**
 * The person's site block list in the images agents get: a page (frame-masked.html) embeds four magenta frames on a
 * blocked path — one on its own origin inside an element, one out of process, one inside a same-origin open frame,
 * one inside an out-of-process open frame — next to green, blue and teal content that is not blocked. The person
 * sets the rule in the options page; agents act only through the built CLI, and the pixels are decoded here.
 *
 *   - without rules a screenshot shows the frames and names nothing; with the rule, a viewport screenshot and a
 *     screenshot of an element holding a blocked frame show flat grey everywhere in each blocked frame's box, and
 *     the unblocked content around keeps its colours; the result names each area;
 *   - a recording's frames, and the GIF made from them, are painted over too.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { FixtureServer } from './fixtureServer.js';
import { until } from './harness.js';
import { okJson, open, type Opened } from './helpers.js';
import { blockListRig, saveOptions } from './personOptions.js';
import { decodePng, near } from './pixels.js';

const RULE = '*/frame-solid.html?blocked*';
const MAGENTA: [number, number, number] = [255, 0, 255];
const GREY: [number, number, number] = [128, 128, 128];

const rig = blockListRig();

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Where each blocked frame's document is drawn (CSS px of the viewport; the page does not scroll), and from where. */
const blockedBoxes = (): { box: Box; origin: string }[] => [
  { box: { x: 133, y: 23, width: 160, height: 100 }, origin: rig.relay.server.origin },
  { box: { x: 330, y: 10, width: 160, height: 100 }, origin: rig.crossServer.origin },
  { box: { x: 30, y: 170, width: 120, height: 80 }, origin: rig.crossServer.origin },
  { box: { x: 350, y: 170, width: 120, height: 80 }, origin: rig.relay.server.origin },
];
/** Content that is not blocked, near the blocked frames, with its colour. */
const OPEN: [number, number, [number, number, number]][] = [
  [50, 50, [0, 160, 0]],
  [125, 15, [0, 0, 200]],
  [250, 280, [0, 160, 160]],
  [600, 280, [0, 160, 160]],
  [520, 60, [255, 255, 255]],
];

async function openPage(): Promise<Opened> {
  const asked = (server: FixtureServer) => server.requests.filter((path) => path.startsWith('/frame-solid.html?blocked=1')).length;
  const before = [asked(rig.relay.server), asked(rig.crossServer)];
  const tab = await open(rig.relay, `/frame-masked.html?x=${encodeURIComponent(rig.crossServer.origin)}`);
  // Two blocked frames from each server; then time for them to be drawn.
  await until(() => asked(rig.relay.server) === (before[0] ?? 0) + 2 && asked(rig.crossServer) === (before[1] ?? 0) + 2, 10_000, 'all four blocked frames requested');
  // The person looks at the tab: a background tab does not always draw its iframes at all (seen in Chromium 156:
  // white where they are), which would prove nothing about painting over them.
  await (await rig.relay.page(tab.path)).bringToFront();
  await new Promise((resolve) => setTimeout(resolve, 700));
  return tab;
}

type Png = ReturnType<typeof decodePng>;

/** Pixels of `box` (image px) that are not the flat fill; and those close to the blocked frames' magenta. */
function leaks(png: Png, box: Box, tolerance = 8): { notGrey: number; magenta: number } {
  let notGrey = 0;
  let magenta = 0;
  for (let y = Math.round(box.y); y < Math.round(box.y + box.height); y++) {
    for (let x = Math.round(box.x); x < Math.round(box.x + box.width); x++) {
      const pixel = png.pixel(x, y);
      if (!pixel.every((v, i) => Math.abs(v - (GREY[i] ?? 0)) <= tolerance)) notGrey++;
      if (pixel.every((v, i) => Math.abs(v - (MAGENTA[i] ?? 0)) <= 90)) magenta++;
    }
  }
  return { notGrey, magenta };
}

const scaled = (box: Box, k: number): Box => ({ x: box.x * k, y: box.y * k, width: box.width * k, height: box.height * k });

/** An image file as PNG pixels, decoded by ffmpeg (JPEG frames, the GIF's first frame). */
function viaFfmpeg(file: string): Png {
  const out = join(mkdtempSync(join(tmpdir(), 'cr-px-')), 'frame.png');
  execFileSync('ffmpeg', ['-loglevel', 'error', '-i', file, '-frames:v', '1', '-pix_fmt', 'rgb24', out]);
  return decodePng(readFileSync(out));
}

describe('captures paint over frames that show a blocked site', () => {
  it('a viewport screenshot: flat grey in every blocked box, the open content around keeps its colours, each area named', async () => {
    const tab = await openPage();
    // Without rules the frames show, and nothing is named.
    const plain = await okJson(rig.relay, 'screenshot', '--tab', String(tab.tabId));
    const seen = decodePng(readFileSync(String(plain.path)));
    for (const { box } of blockedBoxes()) {
      const centre = seen.pixel(box.x + box.width / 2, box.y + box.height / 2);
      expect(near(centre, MAGENTA), `${JSON.stringify(box)} ${centre}`).toBe(true);
    }
    expect(plain.masked).toBeUndefined();

    await saveOptions(rig.options, { blocked: RULE });
    const shot = await okJson(rig.relay, 'screenshot', '--tab', String(tab.tabId));
    const png = decodePng(readFileSync(String(shot.path)));
    for (const { box } of blockedBoxes()) expect(leaks(png, box), JSON.stringify(box)).toEqual({ notGrey: 0, magenta: 0 });
    for (const [x, y, colour] of OPEN) expect(near(png.pixel(x, y), colour), `${x},${y} ${png.pixel(x, y)}`).toBe(true);
    const masked = (shot.masked as { rule: string; origin: string; box: Box }[]).map(({ rule, origin, box }) => ({ rule, origin, box }));
    expect(masked).toHaveLength(4);
    for (const { box, origin } of blockedBoxes()) {
      const named = masked.find((area) => Math.abs(area.box.x - box.x) <= 1 && Math.abs(area.box.y - box.y) <= 1);
      expect(named, JSON.stringify(masked)).toMatchObject({ rule: RULE, origin });
      expect(Math.abs((named?.box.width ?? 0) - box.width)).toBeLessThanOrEqual(2);
      expect(Math.abs((named?.box.height ?? 0) - box.height)).toBeLessThanOrEqual(2);
    }
  });

  it('a screenshot of an element holding a blocked frame (--selector) and a JPEG one: grey where the frame is, the element around it kept', async () => {
    const tab = await openPage();
    // The page loads first: once a rule is in force, the network barrier keeps the blocked site out of agent
    // tabs altogether (control-barrier.e2e.ts). What is tested here is a page that already shows one.
    await saveOptions(rig.options, { blocked: RULE });
    const shot = await okJson(rig.relay, 'screenshot', '--tab', String(tab.tabId), '--selector', '#holder');
    const png = decodePng(readFileSync(String(shot.path)));
    expect([png.width, png.height]).toEqual([186, 126]);
    expect(leaks(png, { x: 13, y: 13, width: 160, height: 100 })).toEqual({ notGrey: 0, magenta: 0 });
    for (const [x, y] of [[4, 4], [180, 120], [93, 6]] as const) expect(near(png.pixel(x, y), [0, 0, 200]), `${x},${y} ${png.pixel(x, y)}`).toBe(true);
    expect(shot.masked).toEqual([{ rule: RULE, origin: rig.relay.server.origin, box: { x: 13, y: 13, width: 160, height: 100 } }]);

    const jpeg = await okJson(rig.relay, 'screenshot', '--tab', String(tab.tabId), '--format', 'jpeg', '--max-edge', '400');
    const small = viaFfmpeg(String(jpeg.path));
    const k = small.width / (jpeg.width as number);
    for (const { box } of blockedBoxes()) expect(leaks(small, scaled(box, k), 24).magenta, JSON.stringify(box)).toBe(0);
    expect(jpeg.masked).toHaveLength(4);
  });

  it('a full-page screenshot (--full) paints the same areas and keeps the open content', async () => {
    const tab = await openPage();
    // The page loads first: once a rule is in force, the network barrier keeps the blocked site out of agent
    // tabs altogether (control-barrier.e2e.ts). What is tested here is a page that already shows one.
    await saveOptions(rig.options, { blocked: RULE });
    const shot = await okJson(rig.relay, 'screenshot', '--tab', String(tab.tabId), '--full');
    const png = decodePng(readFileSync(String(shot.path)));
    for (const { box } of blockedBoxes()) expect(leaks(png, box), JSON.stringify(box)).toEqual({ notGrey: 0, magenta: 0 });
    for (const [x, y, colour] of OPEN) expect(near(png.pixel(x, y), colour), `${x},${y} ${png.pixel(x, y)}`).toBe(true);
    expect(shot.masked).toHaveLength(4);
  });

  it("a recording's frames and its GIF are painted over", async () => {
    const tab = await openPage();
    // The page loads first: once a rule is in force, the network barrier keeps the blocked site out of agent
    // tabs altogether (control-barrier.e2e.ts). What is tested here is a page that already shows one.
    await saveOptions(rig.options, { blocked: RULE });
    const t = String(tab.tabId);
    await okJson(rig.relay, 'record', 'start', '--tab', t);
    for (const colour of ['rgb(0, 150, 0)', 'rgb(0, 170, 0)', 'rgb(0, 160, 0)']) {
      await okJson(rig.relay, 'js', `document.getElementById('open').style.background = '${colour}'`, '--tab', t);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const dir = mkdtempSync(join(tmpdir(), 'cr-rec-'));
    const stop = await okJson(rig.relay, 'record', 'stop', '--tab', t, '--out', dir, '--gif', '--fps', '5');
    expect(stop.frames as number).toBeGreaterThanOrEqual(2);
    const byOrigin = (areas: unknown): unknown[] => [...(areas as { origin: string }[])].sort((a, b) => a.origin.localeCompare(b.origin));
    expect(byOrigin(stop.masked)).toEqual(byOrigin([
      { rule: RULE, origin: rig.relay.server.origin, frames: stop.frames },
      { rule: RULE, origin: rig.crossServer.origin, frames: stop.frames },
    ]));
    const width = (await okJson(rig.relay, 'js', 'document.documentElement.clientWidth', '--tab', t)).value as number;
    const files = [join(dir, 'frame-00001.jpg'), join(dir, `frame-${String(stop.frames).padStart(5, '0')}.jpg`), String(stop.gif)];
    for (const file of files) {
      const png = viaFfmpeg(file);
      const k = png.width / width;
      for (const { box } of blockedBoxes()) expect(leaks(png, scaled(box, k), 40).magenta, `${file} ${JSON.stringify(box)}`).toBe(0);
      // The open content stays (green within JPEG and GIF palette error).
      const [r, g, b] = png.pixel(Math.round(50 * k), Math.round(50 * k));
      expect(r < 60 && g > 120 && b < 60, `${file} ${r},${g},${b}`).toBe(true);
    }
  });
});
