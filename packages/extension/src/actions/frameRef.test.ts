import { describe, expect, it } from 'vitest';
import { contextIdOf } from './frameRef.js';

describe('contextIdOf', () => {
  it('reads the context from a V8 remote object id (isolate.context.object)', () => {
    expect(contextIdOf('-1296162792235339869.7.1')).toBe(7);
    expect(contextIdOf('4411.23.918')).toBe(23);
  });

  it('refuses any other shape rather than guess', () => {
    for (const id of ['', '7', '1.2', '{"injectedScriptId":7,"id":1}', '1.x.3', '1.0.3', '1.2.3.4']) expect(contextIdOf(id)).toBeUndefined();
  });
});
