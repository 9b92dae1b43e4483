/**
 * Where chrome-relay's per-user files live on each OS and how its processes find each other, as seen by
 * both the CLI and the host: the home, the run dir of `host-<pid>.json` descriptors and the endpoints
 * they name, whether a host is alive, sweeping what dead hosts left behind, and the per-user secret that
 * guards named pipes. Written once here for both sides, which once disagreed about zombie processes and a
 * relative CHROME_RELAY_HOME. Everything that differs by OS sits behind the platform seam (platform/).
 */
export { relayHome, runDir } from './home.js';
export { isPidAlive, probeSocket } from './liveness.js';
export { sweepStaleHosts } from './sweep.js';
export { ensurePrivateDir } from './privateDir.js';
export { listenPrivate } from './listen.js';
export { needsProof, proofForEndpoint, proofMatches } from './secret.js';
export { osOf } from './platform/os.js';
export type { OsName } from './platform/os.js';
export { currentPlatform, platformOf } from './platform/platform.js';
export type { Endpoint, Platform, UserFacts } from './platform/seam.js';
export { BROWSERS, LAUNCH_ORDER, browserOfExecutable } from './platform/browsers.js';
export { removeOwnSocketDir } from './platform/posix.js';
export { regExeRegistry, regExePath } from './platform/registry.js';
export type { Registry } from './platform/registry.js';
export { currentUser, homeProblem } from './trust.js';
export type { HomeProblem } from './trust.js';
export { isNamedPipe } from './endpoint.js';
export { isPairingSecret, listenDirProblem, pairingFile, pairingProof, pairingSecret } from './bridgeFiles.js';
