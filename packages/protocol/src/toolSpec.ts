/**
 * A tool's wire contract, built on first use. The CLI starts once per agent action, and building
 * every tool's zod schemas at start-up cost ~40 ms (more than Node's own start on these machines);
 * one call needs one tool's schemas. The getters keep each entry's exact static type.
 */
import type * as z from 'zod';

export interface ToolSpec<P extends z.ZodType, R extends z.ZodType> {
  readonly description: string;
  /**
   * Whether the tool changes the page or the browser (input, navigation, tabs, dialogs, leases…).
   * A mutating call cut off by `timeout` or `native_host_disconnected` may or may not have acted, so
   * it is reported non-retryable with "check the page first" (interrupted.ts); a read-only one stays
   * retryable. Required, so every new tool decides.
   */
  readonly mutates: boolean;
  readonly params: P;
  readonly result: R;
}

export function lazyTool<P extends z.ZodType, R extends z.ZodType>(build: () => ToolSpec<P, R>): ToolSpec<P, R> {
  let built: ToolSpec<P, R> | undefined;
  const spec = (): ToolSpec<P, R> => (built ??= build());
  return {
    get description() {
      return spec().description;
    },
    get mutates() {
      return spec().mutates;
    },
    get params() {
      return spec().params;
    },
    get result() {
      return spec().result;
    },
  };
}
