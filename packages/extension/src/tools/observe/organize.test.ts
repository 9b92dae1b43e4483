import { describe, expect, it } from 'vitest';
import { RelayError } from '@chrome-relay/protocol';
import { createTargetingContext } from '../../targeting/context.js';
import { createFakeEnvironment } from '../../testing/fakeChrome.js';
import { fakeOrganize } from '../../testing/fakeOrganize.js';
import { organizeTools } from './organize.js';

function setup() {
  const env = createFakeEnvironment();
  const deps = createTargetingContext({ browser: env.browser, organize: fakeOrganize(env.browser), refs: { lookup: async () => undefined, forgetTab: async () => undefined }, seesGroup: async () => true });
  const tabA = env.browser.addTab({}).id ?? 0;
  const tabB = env.browser.addTab({}).id ?? 0;
  return { ...env, ctx: { ...env.ctx, targeting: deps }, deps, tools: organizeTools, tabA, tabB };
}

async function failure(run: Promise<unknown>): Promise<RelayError> {
  try {
    await run;
  } catch (error) {
    if (error instanceof RelayError) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('lease tools', () => {
  it("release: the owner's own (one, or --all); another agent's is target_conflict leased", async () => {
    const { tools, ctx, tabA, tabB } = setup();
    await tools.leaseClaim.handle({ agent: 'alice', tab: tabA }, ctx);
    await tools.leaseClaim.handle({ agent: 'alice', tab: tabB }, ctx);
    const stolen = await failure(tools.leaseRelease.handle({ agent: 'bob', tab: tabA }, ctx));
    expect(stolen).toMatchObject({ code: 'target_conflict', details: { reason: 'leased', owner: 'alice' } });
    expect((await tools.leaseRelease.handle({ agent: 'alice', all: true }, ctx)).released.map((l) => l.target).sort()).toEqual([String(tabA), String(tabB)].sort());
    expect((await tools.leaseList.handle({}, ctx)).leases).toEqual([]);
  });

  it("an agent cannot free another agent's lease: only the person can, from the popup", async () => {
    const { tools, ctx, tabA } = setup();
    await tools.leaseClaim.handle({ agent: 'alice', tab: tabA }, ctx);
    const refused = await failure(tools.leaseRelease.handle({ agent: 'mallory', tab: tabA }, ctx));
    expect(refused).toMatchObject({ code: 'target_conflict', details: { reason: 'leased', owner: 'alice' } });
    expect(refused.message).not.toContain('--force');
    expect(refused.message).toContain('ask the person');
    expect((await tools.leaseList.handle({}, ctx)).leases).toMatchObject([{ owner: 'alice' }]);
  });

  it('list drops leases whose tab is gone', async () => {
    const { tools, ctx, browser, tabA, tabB } = setup();
    await tools.leaseClaim.handle({ agent: 'alice', tab: tabA }, ctx);
    await tools.leaseClaim.handle({ agent: 'alice', tab: tabB }, ctx);
    browser.closeTab(tabA);
    expect((await tools.leaseList.handle({}, ctx)).leases.map((l) => l.target)).toEqual([String(tabB)]);
  });

  it('name clashes carry their reason', async () => {
    const { tools, ctx, tabA } = setup();
    await tools.groupCreate.handle({ name: 'g', tabs: [tabA] }, ctx);
    expect(await failure(tools.groupCreate.handle({ name: 'g', tabs: [tabA] }, ctx))).toMatchObject({ code: 'target_conflict', details: { reason: 'name_taken' } });
    await tools.workspaceCreate.handle({ name: 'w' }, ctx);
    expect(await failure(tools.workspaceCreate.handle({ name: 'w' }, ctx))).toMatchObject({ code: 'target_conflict', details: { reason: 'name_taken' } });
  });
});
