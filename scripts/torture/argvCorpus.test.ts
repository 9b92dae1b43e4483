import { describe, expect, it } from 'vitest';
import { ArgvCorpus, bindTabs, type CorpusContext } from './argvCorpus.js';
import { createRng } from '@chrome-relay/protocol/src/testing/prng.js';

const offline: CorpusContext = { live: false, tabSlots: 4, scratch: '/tmp/scratch', origin: '' };
const live: CorpusContext = { live: true, tabSlots: 4, scratch: '/tmp/scratch', origin: 'http://127.0.0.1:9' };
const draw = (seed: number, context: CorpusContext, n = 500) => {
  const corpus = new ArgvCorpus(createRng(seed), context);
  return Array.from({ length: n }, () => corpus.next());
};

describe('ArgvCorpus', () => {
  it('is reproducible from the seed', () => {
    expect(draw(5, offline)).toEqual(draw(5, offline));
    expect(draw(5, offline)).not.toEqual(draw(6, offline));
  });

  it('never launches a real browser, never rewrites the install or swaps the host in a live round, and bounds waits', () => {
    for (const { argv, stdin } of [...draw(1, offline, 3000), ...draw(2, live, 3000)]) {
      if (argv.includes('launch')) expect(argv.slice(-2)).toEqual(['--browser', '/nonexistent/chromium-for-torture']);
      const waitAt = argv.indexOf('wait');
      if (waitAt >= 0 && argv[waitAt - 1] !== '--text') expect(argv.lastIndexOf('--timeout')).toBeGreaterThan(waitAt);
      for (const word of argv) expect(word).not.toContain('\u0000');
      expect(stdin === undefined || typeof stdin === 'string').toBe(true);
    }
    for (const { argv } of draw(3, live, 3000)) {
      expect(argv.some((w) => w === 'update' || w === 'install' || w === 'uninstall')).toBe(false);
      expect(argv).toContain('--timeout');
    }
  });

  it('binds tab placeholders in argv and batch stdin', () => {
    expect(bindTabs({ argv: ['snapshot', '--tab', '$tab1'], stdin: '[{"command":"js","args":["--tab","$tab5"]}]' }, [10, 11, 12, 13])).toEqual({
      argv: ['snapshot', '--tab', '11'],
      stdin: '[{"command":"js","args":["--tab","11"]}]',
    });
  });
});
