/**
 * The flags every dedicated profile runs with (launch.ts), and the bench gives every browser it compares: no
 * first-run or default-browser prompts, no background traffic or updates that would wake the profile while an
 * agent works, and a password store that needs no keyring on a desktop-less machine.
 */
export const QUIET_BROWSER_FLAGS: readonly string[] = [
  '--no-first-run',
  '--no-default-browser-check',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
  '--password-store=basic',
];
