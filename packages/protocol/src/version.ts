/**
 * Each bundle (CLI, host, extension) captures these at build time, so a CLI and an extension built
 * from different releases can see their skew on every call.
 */
export const VERSION = '0.1.0';
/** Bumped when a wire shape changes incompatibly. */
export const PROTOCOL_VERSION = 1;
