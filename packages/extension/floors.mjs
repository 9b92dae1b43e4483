// The extension's floor plan, as data (docs/architecture.md, "The extension's floors", says why each room sits
// where it does). A room is a folder of src/ or one file at its top. A room may import rooms on lower floors only —
// types included, since a type import is as much a dependency as a value — and never one on its own floor or above.
// The page side (`injected`) imports nothing outside its own folder: it is bundled into the page.
// Read by the ESLint rule `floors/imports` (scripts/eslintFloors.mjs) and by scripts/floorFigures.mjs. Tests and
// the fakes in testing/ may import anything.

/** room → floor, lowest first. */
export const FLOORS = {
  // 0: the page side; storage primitives.
  injected: 0,
  state: 0,
  // 1: Chrome's own APIs behind small interfaces (tabs and storage, the debugger).
  browserApi: 1,
  cdp: 1,
  // 2: what every call carries (CallContext, CallTabs); tab groups; capture rings.
  context: 2,
  organizeApi: 2,
  observe: 2,
  // 3: the person's limits; the popup's log; the tab chrome-relay last worked on.
  policy: 3,
  activity: 3,
  targets: 3,
  // 4: refs; call → tabs, leases, workspaces.
  refs: 4,
  targeting: 4,
  // 5: the page through CDP: worlds, frames, page calls, navigation; what the page is doing (dialogs, downloads, readiness).
  page: 5,
  pageState: 5,
  // 6: the one way input reaches a page; the one way pixels leave it.
  input: 6,
  capture: 6,
  // 7: what tools share: their context, ref actions, pointer delivery, verdicts, landing, drops, frame refs.
  actions: 7,
  // 8: the tools.
  tools: 8,
  // 9: one call from the host to its answer; the person's pages' service.
  navigationCut: 9,
  snapshotAfter: 9,
  answerFit: 9,
  ui: 9,
  dispatcher: 10,
  watchdog: 10,
  hostPort: 11,
  // 12: the composition root: everything is built once, here.
  background: 12,
};

/** The room of a path relative to the extension's src/ (`page/worlds.ts` → `page`, `dispatcher.ts` → `dispatcher`). */
export function roomOf(relative) {
  const parts = relative.split('/');
  return parts.length > 1 ? parts[0] : parts[0].replace(/\.(ts|js)$/, '');
}

/** Files the floor plan does not hold: tests, the fakes they share, declarations. */
export function exempt(relative) {
  return relative.endsWith('.test.ts') || relative.startsWith('testing/') || relative.endsWith('.d.ts') || /(^|\/)fake[A-Z]\w*\.ts$/.test(relative);
}

/**
 * The one pointer-action path (actions/pointerAction.ts says what it owns: aim → landing check → send → verify →
 * give-way retry → disarm). Its entry is the only file of it the rest of the extension may import; its other files
 * aim, arm, read and disarm the delivery guards for it alone. Read by the ESLint rule `floors/pointer-path` and by
 * scripts/floorFigures.mjs (calls that aim or disarm outside these files).
 */
export const POINTER_PATH = {
  entry: 'actions/pointerAction.ts',
  files: ['actions/pointerAction.ts', 'actions/pointerDelivery.ts', 'actions/pointClick.ts', 'actions/dropDelivery.ts'],
};
