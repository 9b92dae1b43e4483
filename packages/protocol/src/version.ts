/**
 * Each bundle (CLI, host, extension) captures these at build time, so a CLI and an extension built
 * from different releases can see their skew on every call.
 */
export const VERSION = '0.1.0';
/**
 * Bumped when a wire shape changes incompatibly: a peer reads its own protocol and refuses what it does not know.
 * 2: requests may carry `via` (a call a bridge relayed), which hosts of 1 refuse as malformed.
 */
export const PROTOCOL_VERSION = 2;
/**
 * The first protocol whose hosts and extensions take a bridged call (`via`): a bridge sends nothing to an older one
 * (cli remote/bridge.ts), and says the move instead of relaying a "malformed request".
 */
export const BRIDGED_SINCE_PROTOCOL = 2;
