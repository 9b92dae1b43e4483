import { describe, expect, it } from 'vitest';
import { whyNotStarted } from './setupRuntime.js';

describe('setup: why the browser that was to show the steps did not start', () => {
  it('names the causes a person can act on, else the browser’s own last line', () => {
    expect(whyNotStarted('[1:1:ERROR:ozone_platform_x11.cc(240)] Missing X server or $DISPLAY\n')).toMatch(/no display to draw its window on/);
    expect(whyNotStarted('[1:1:ERROR:zygote_host_impl_linux.cc(100)] Running as root without --no-sandbox is not supported.\n')).toBe('it refuses to run as root without --no-sandbox');
    expect(whyNotStarted('[1:1:WARNING:a.cc(1)] something\n[1:1:ERROR:b.cc(2)] Failed to launch GPU process.\n\n')).toBe('it said: "Failed to launch GPU process."');
    expect(whyNotStarted('')).toBe('it printed nothing about why');
  });
});
