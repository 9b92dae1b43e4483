/**
 * One input call per tab at a time. A pointer action is a sequence — arm the page's delivery guard, move, press,
 * release, read the guard — and so is typing (find the focus, then key after key). Two of them interleaved in one tab
 * give false answers: the guard keeps one arming per document, so a click whose handler ran read another action's
 * arming and was reported "not delivered"; a typed word landed in the field another agent had just focused, and a
 * fill read back both agents' text. So every call whose tool entry says `input: true` (click, hover, drag, check,
 * upload, keys, type, fill, focus…) waits for its tab's turn here, in arrival order; the dispatcher takes the turn, so
 * no tool can forget it. Keyboard input is serialised with the pointer because focus is shared: a click moves focus
 * under a typing agent as surely as another agent's `focus`.
 *
 * Invariants:
 * - A waiter whose deadline comes first gets `timeout` (reason busy) and never starts: it did nothing.
 * - A turn ends when the call's own work has settled — not when the call was answered. A call answered at its
 *   deadline still has CDP commands in flight that the page may yet act on (they cannot be taken back); the next
 *   call must not interleave with them. The work does settle: a CDP command ends by its answer or by the session's
 *   detach (cdpSession.ts rejects pending commands then; closing the tab is one), a handler's other waits by the
 *   call's deadline. Only a page that never answers keeps its tab's turn — and nothing could act there anyway; the
 *   calls behind it answer busy.
 * - …and when no Input.* command to the tab is in flight any more, checked a task later: a press whose handler
 *   opened alert() is still unanswered when the tool has already reported the dialog, and the release that follows
 *   it once the dialog is answered belongs to the same action.
 * - A call answered with an error while its work still runs (its deadline passed, the person paused, a dialog
 *   stopped it) sends no new input: from then on its Input commands are refused with the answer it got, except
 *   those that let go of what it pressed (a mouse release, a key up), so nothing stays held down. Its handler then
 *   fails at its next step instead of typing on for minutes after the agent was told to check the page.
 * - Every Input.* command passes `admit` (CdpSessions.setInputGate): one sent to a tab no call holds is refused
 *   with internal_error naming the fix (the tool's entry lacks `input: true`).
 */
import { RelayError, reasonedError, toolLabel } from '@chrome-relay/protocol';
import { TabLocks } from '../refs/tabLocks.js';

/** A call's turn at its tab's input; `end` hands in the call's work, and the next call starts once it is over. */
export interface Turn {
  end(work: Promise<unknown>): void;
  /** The call was answered with `error`: refuse its further input, except letting go (see the header). */
  answered(error: RelayError): void;
}

/**
 * A place in a tab's queue: `granted` resolves with the turn. `abandon` gives it up, for a caller that stopped
 * waiting (and will run nothing): the place is passed over, or a turn already granted ends.
 */
export interface Waiting {
  granted: Promise<Turn>;
  abandon(): void;
}

interface Holding {
  /** Input.* commands to the tab not answered yet. */
  inflight: number;
  /** Called when `inflight` drops to 0. */
  idle: (() => void) | undefined;
  /** The error the call was answered with while its work still ran. */
  answered: RelayError | undefined;
}

/** Pure: does this Input command only let go of something pressed (or stop intercepting drags)? */
export function letsGo(method: string, params: object | undefined): boolean {
  const type = params !== undefined && 'type' in params ? params.type : undefined;
  if (method === 'Input.dispatchMouseEvent') return type === 'mouseReleased';
  if (method === 'Input.dispatchKeyEvent') return type === 'keyUp';
  if (method === 'Input.setInterceptDrags') return params !== undefined && 'enabled' in params && params.enabled === false;
  return false;
}

function busyError(tabId: number, tool: string): RelayError {
  return reasonedError(
    'timeout',
    'busy',
    `Tab ${tabId} was taking another input action (another agent's or call's click, keys or typing: one at a time per tab) until the deadline of this ${toolLabel(tool)}, so it never started and did nothing. Retry in a moment, or give each agent its own tab.`,
    { tool, phase: 'resolve', details: { tab: tabId, waitingFor: 'input' } },
  );
}

export class InputLanes {
  readonly #locks = new TabLocks();
  readonly #holders = new Map<number, Holding>();

  /** Queue for `tabId`'s turn; past `deadline` (epoch ms) `granted` rejects with timeout busy. */
  enter(tabId: number, deadline: number, tool: string): Waiting {
    let abandoned = false;
    let given: Turn | undefined;
    let give: (turn: Turn) => void = () => undefined;
    let fail: (error: unknown) => void = () => undefined;
    const granted = new Promise<Turn>((resolve, reject) => {
      give = resolve;
      fail = reject;
    });
    // A caller that abandoned its place no longer listens for the busy failure.
    granted.catch(() => undefined);
    this.#locks
      .run(
        tabId,
        deadline,
        () =>
          this.#hold(tabId, (turn) => {
            given = turn;
            if (abandoned) turn.end(Promise.resolve());
            else give(turn);
          }),
        () => busyError(tabId, tool),
      )
      .catch(fail);
    return {
      granted,
      abandon: () => {
        abandoned = true;
        // The turn came while the caller was giving up: nothing of it runs, so it ends now.
        given?.end(Promise.resolve());
      },
    };
  }

  /** Whether a call holds `tabId`'s turn now. */
  held(tabId: number): boolean {
    return this.#holders.has(tabId);
  }

  /**
   * The gate every Input.* command passes: counted against the tab's turn while in flight (call the returned
   * function when it settles); refused when no call holds the tab, or when the holder was already answered and the
   * command does not let go of anything.
   */
  admit(tabId: number, method: string, params?: object): () => void {
    const holding = this.#holders.get(tabId);
    if (holding === undefined) {
      throw new RelayError(
        'internal_error',
        `${method} was sent to tab ${tabId} outside an input call: the tool's entry must say \`input: true\`, so that input calls on one tab take turns.`,
        { phase: 'act', details: { method, tab: tabId } },
      );
    }
    if (holding.answered !== undefined && !letsGo(method, params)) throw holding.answered;
    holding.inflight++;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      if (--holding.inflight === 0) holding.idle?.();
    };
  }

  async #hold(tabId: number, give: (turn: Turn) => void): Promise<void> {
    const holding: Holding = { inflight: 0, idle: undefined, answered: undefined };
    this.#holders.set(tabId, holding);
    try {
      // Boxed: resolving with the work itself would adopt its failure.
      const { work } = await new Promise<{ work: Promise<unknown> }>((resolve) => {
        give({
          end: (ended) => resolve({ work: ended }),
          answered: (error) => {
            holding.answered ??= error;
          },
        });
      });
      await work.catch(() => undefined);
      await quiet(holding);
    } finally {
      this.#holders.delete(tabId);
    }
  }
}

/** Until no input is in flight, and none was sent within a task of the last one settling (a release after its press). */
async function quiet(holding: Holding): Promise<void> {
  for (;;) {
    if (holding.inflight > 0) {
      await new Promise<void>((resolve) => {
        holding.idle = resolve;
      });
      holding.idle = undefined;
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
    if (holding.inflight === 0) return;
  }
}
