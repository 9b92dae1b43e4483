/**
 * The files through which CLIs find hosts — `<home>/run/host-<pid>.json` and its socket — as seen by
 * both sides: where the home is, whether a host is alive, and sweeping what dead hosts left behind.
 * Written once here for the CLI (discovery, doctor) and the host (its start-up sweep), which once
 * disagreed about zombie processes and a relative CHROME_RELAY_HOME.
 */
export { relayHome, runDir } from './home.js';
export { isPidAlive, probeSocket } from './liveness.js';
export { sweepStaleHosts } from './sweep.js';
