/**
 * dist/schemas.cjs from call.cjs: the tool entries with their zod schemas, and zod itself, run with
 * their code cache on first use (a call that failed, or met another build). packages/cli/build.mjs
 * points call.cjs's stand-ins for protocol's tools.ts and for zod here.
 */
import { runBundle } from '../loader/bundle.js';

/** Set by packages/cli/build.mjs: the content hash of dist/schemas.cjs. */
declare const __SCHEMAS_BUNDLE_HASH__: string;

let loaded: unknown;

/** The exports of dist/schemas.cjs (this code runs from dist/call.cjs, so __dirname is dist/). */
export function schemasBundle(): unknown {
  loaded ??= runBundle(__dirname, 'schemas', __SCHEMAS_BUNDLE_HASH__);
  return loaded;
}
