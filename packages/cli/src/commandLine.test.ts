/**
 * Tool commands through the real program (commander + the registry's declarations + the schema), up
 * to the request the host receives: a fake host records it. Regression tests for the command lines
 * that once disagreed with the schema.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayError, WAIT_REPORT_MS, type ClientRequest } from '@chrome-relay/protocol';
import { buildProgram } from './program.js';
import { startFakeHost, type FakeHost } from './testing/fakeHost.js';

let host: FakeHost;
const savedHome = process.env.CHROME_RELAY_HOME;
const savedAgent = process.env.CHROME_RELAY_AGENT;
const files = mkdtempSync(join(tmpdir(), 'cr-cmdline-'));
writeFileSync(join(files, 'a.txt'), 'a');

beforeAll(async () => {
  const home = mkdtempSync(join(tmpdir(), 'cr-cmdline-home-'));
  process.env.CHROME_RELAY_HOME = home;
  delete process.env.CHROME_RELAY_AGENT;
  host = await startFakeHost({ home, pid: process.pid });
});
afterAll(async () => {
  await host.close();
  if (savedHome === undefined) delete process.env.CHROME_RELAY_HOME;
  else process.env.CHROME_RELAY_HOME = savedHome;
  if (savedAgent !== undefined) process.env.CHROME_RELAY_AGENT = savedAgent;
});

/** Run a command line; the fake host answers unsupported_tool, so a sent call fails with that. */
async function run(...args: string[]): Promise<{ request: ClientRequest | undefined; error: RelayError | undefined }> {
  const argv = ['node', 'chrome-relay', ...args];
  const before = host.requests.length;
  let error: RelayError | undefined;
  try {
    await buildProgram(argv).parseAsync(argv);
  } catch (caught) {
    error = caught instanceof RelayError ? caught : RelayError.from(caught, '', 'cli');
  }
  const request = host.requests.length > before ? host.requests.at(-1) : undefined;
  return { request, error: request !== undefined && error?.code === 'unsupported_tool' ? undefined : error };
}

async function sent(...args: string[]): Promise<ClientRequest> {
  const { request, error } = await run(...args);
  expect(error, args.join(' ')).toBeUndefined();
  if (request === undefined) throw new Error(`nothing sent for ${args.join(' ')}`);
  return request;
}

/**
 * The command line is refused. Flag and argument conversions fail before anything is sent; the
 * schema's own checks run where the call fails (the extension checks params first thing; here the
 * fake host answers unsupported_tool), so a request may have gone out — never a success.
 */
async function refused(...args: string[]): Promise<RelayError> {
  const { error } = await run(...args);
  if (error === undefined) throw new Error(`not refused: ${args.join(' ')}`);
  return error;
}

describe('tool commands send what the schema accepts', () => {
  it('navigate --timeout 500 sends no negative readiness budget (the extension keeps readiness inside the call deadline)', async () => {
    const request = await sent('navigate', 'https://example.com', '--timeout', '500');
    expect(request.params).toEqual({ url: 'https://example.com' });
    expect(request.timeoutMs).toBe(500);
  });

  it('--wait-timeout is checked against the schema\'s limit, naming the flag', async () => {
    const error = await refused('navigate', 'https://example.com', '--wait-timeout', '300000');
    expect(error.toData()).toMatchObject({ code: 'invalid_arguments', phase: 'cli', details: { field: 'wait-timeout' } });
    expect(error.message).toMatch(/^wait-timeout: .*120000/);
    expect((await sent('back', '--wait-timeout', '5000')).params).toEqual({ timeoutMs: 5000 });
  });

  it('maps the flags that are not 1:1 onto their params', async () => {
    expect((await sent('click', '@e4', '--double')).params).toEqual({ ref: 'e4', clickCount: 2 });
    expect((await sent('click', '--x', '10.5', '--y', '3', '--modifiers', 'ctrl,shift')).params).toEqual({ x: 10.5, y: 3, modifiers: ['Control', 'Shift'] });
    expect((await sent('network', '--raw-headers', '--status', '4xx')).params).toEqual({ rawHeaders: true, status: '4xx' });
    expect((await sent('snapshot', '-s', '@e3', '--no-elide', '-i')).params).toEqual({ scopeRef: 'e3', noElide: true, interactive: true });
    expect((await sent('snapshot', '-s', 'form#login', '--depth', '2')).params).toEqual({ scopeSelector: 'form#login', depth: 2 });
    expect((await sent('type', 'hello', '-s', '@e7')).params).toEqual({ text: 'hello', ref: 'e7' });
    // -s is the element: a ref, or else a CSS selector (the page resolves it to one element).
    expect((await sent('type', 'hello', '-s', 'textarea#note')).params).toEqual({ text: 'hello', selector: 'textarea#note' });
    expect((await sent('scroll', '--into-view', '@e9')).params).toEqual({ ref: 'e9', intoView: true });
    expect((await sent('scroll', 'down', '300', '--in', '@e2')).params).toEqual({ direction: 'down', amount: 300, ref: 'e2' });
    expect((await sent('get', 'attr', 'href', '-s', 'a.next')).params).toEqual({ what: 'attr', name: 'href', selector: 'a.next' });
    expect((await sent('wait', '--networkidle')).params).toMatchObject({ networkIdle: true });
    expect((await sent('group', 'create', 'g1', '12', '34', '--allow-partial')).params).toEqual({ name: 'g1', tabs: [12, 34], allowPartial: true });
    expect((await sent('network', 'body', 'r1')).params).toEqual({ id: 'r1' });
  });

  it('fidelity flags: --triple, --frame @ref on readers, drag to a selector or a point', async () => {
    expect((await sent('click', '@e4', '--triple')).params).toEqual({ ref: 'e4', clickCount: 3 });
    expect((await refused('click', '@e4', '--double', '--triple')).toData()).toMatchObject({ code: 'invalid_arguments', details: { field: 'triple' } });
    expect((await sent('get', 'value', '-s', '#card', '--frame', '@e12')).params).toEqual({ what: 'value', selector: '#card', frame: 'e12' });
    expect((await sent('js', 'location.href', '--frame', '@e3')).params).toEqual({ expression: 'location.href', frame: 'e3' });
    expect((await sent('wait', '--text', 'Paid', '--frame', '@e5')).params).toMatchObject({ text: 'Paid', frame: 'e5' });
    expect((await refused('get', 'title', '--frame', 'iframe')).details.field).toBe('frame');
    expect((await sent('drag', '@e3', '@e8')).params).toEqual({ from: 'e3', to: 'e8' });
    expect((await sent('drag', '@e3', '--to-selector', '#trash')).params).toEqual({ from: 'e3', toSelector: '#trash' });
    expect((await sent('drag', '@e3', '--to-x', '640', '--to-y', '300')).params).toEqual({ from: 'e3', toX: 640, toY: 300 });
    expect((await refused('drag', '@e3')).details.field).toBe('to');
    expect((await refused('drag', '@e3', '@e8', '--to-selector', '#trash')).details.field).toBe('to');
    expect((await refused('drag', '@e3', '--to-x', '5')).details.field).toBe('to-y');
  });

  it("an action's --snapshot travels with its call, shaped by -i, -d, --scope (-s names an element, never the snapshot's scope)", async () => {
    const click = await sent('click', '@e4', '--snapshot', '-i', '-d', '2');
    expect(click.params).toEqual({ ref: 'e4' });
    expect(click.snapshot).toEqual({ interactive: true, depth: 2 });
    expect((await sent('navigate', 'https://example.com', '--snapshot', '--scope', '@e3')).snapshot).toEqual({ scopeRef: 'e3' });
    // Commander's own "unknown option" (main.ts reports it as invalid_arguments).
    expect((await refused('navigate', 'https://example.com', '--snapshot', '-s', '@e3')).message).toMatch(/unknown option '-s'/);
    const typed = await sent('type', 'hi', '-s', '@e7', '--snapshot', '--scope', 'form');
    expect(typed.params).toEqual({ text: 'hi', ref: 'e7' });
    expect(typed.snapshot).toEqual({ scopeSelector: 'form' });
    expect(await sent('click', '@e4')).not.toHaveProperty('snapshot');
    const stray = await refused('click', '@e4', '-i');
    expect(stray.toData()).toMatchObject({ code: 'invalid_arguments', details: { field: 'interactive' } });
    expect((await refused('click', '@e4', '--max-chars', '500')).toData()).toMatchObject({ code: 'invalid_arguments', details: { field: 'max-chars' } });
  });

  it('upload: a ref then files, or --via and only files (absolute)', async () => {
    const file = join(files, 'a.txt');
    expect((await sent('upload', '@e7', file)).params).toEqual({ ref: 'e7', files: [file] });
    expect((await sent('upload', '--via', '@e8', file, file)).params).toEqual({ ref: 'e8', via: true, files: [file, file] });
    expect((await refused('upload', '@e7', join(files, 'missing.txt'))).details.field).toBe('files');
  });

  it('wait --timeout is the wait\'s own budget; the call deadline goes around it', async () => {
    const request = await sent('wait', '--text', 'Done', '--timeout', '5000');
    expect(request.params).toEqual({ text: 'Done', timeoutMs: 5000 });
    expect(request.timeoutMs).toBe(5000 + WAIT_REPORT_MS);
  });

  it('--tab means the same before and after the command; workspace travels as the target', async () => {
    expect((await sent('--tab', '7', 'click', '@e1')).params).toEqual({ ref: 'e1', tab: 7 });
    expect((await sent('click', '@e1', '--tab', '7')).params).toEqual({ ref: 'e1', tab: 7 });
    expect((await sent('close', '--tab', '7')).params).toEqual({ tabs: [7] });
    expect((await sent('--workspace', 'w', 'snapshot')).target).toEqual({ workspace: 'w' });
    expect((await refused('close', '5', '--tab', '7')).toData()).toMatchObject({ code: 'target_conflict', details: { reason: 'multiple_targets' } });
    expect((await refused('--tab', '7', 'tabs')).details.field).toBe('tab');
  });

  it('lease commands take --tab/--workspace as what they lease, and the agent identity', async () => {
    expect((await refused('lease', 'claim', '--tab', '5')).details.field).toBe('agent');
    expect((await sent('--agent', 'a1', 'lease', 'claim', '--tab', '5', '--ttl', '60')).params).toEqual({ agent: 'a1', tab: 5, ttlSec: 60 });
    expect((await sent('--agent', 'a1', 'lease', 'release', '--all')).params).toEqual({ agent: 'a1', all: true });
    // Only the person frees another agent's lease (the extension's popup): there is no --force.
    const forced = await run('--agent', 'a1', 'lease', 'release', '--tab', '5', '--force');
    expect(forced.request).toBeUndefined();
    expect(forced.error?.message).toContain("unknown option '--force'");
    expect((await refused('lease', 'release', '--tab', '5')).details.field).toBe('agent');
    expect((await refused('lease', 'claim', '--group', 'g', '--agent', 'a')).details.field).toBe('group');
  });

  it('bad input is invalid_arguments naming the flag or argument as typed', async () => {
    const field = async (...args: string[]): Promise<unknown> => (await refused(...args)).details.field;
    expect(await field('click', '--x', '5')).toBe('y');
    expect(await field('click', '--y', '5')).toBe('x');
    expect(await field('click')).toBe('ref');
    expect(await field('click', 'nope')).toBe('ref');
    expect(await field('snapshot', '--depth', 'x')).toBe('depth');
    expect(await field('snapshot', '--depth', '-1')).toBe('depth');
    expect(await field('screenshot', 'x1')).toBe('element');
    expect(await field('keys')).toBe('keys');
    expect(await field('keys', 'a', ' ')).toBe('keys');
    expect(await field('type', '')).toBe('text');
    expect(await field('wait')).toBe('condition');
    expect(await field('wait', '--text', 'a', '--load')).toBe('condition');
    expect(await field('get', 'html')).toBe('what');
    expect(await field('get', 'text')).toBe('selector');
    expect(await field('get', 'attr', '-s', 'a')).toBe('attribute');
    expect(await field('scroll')).toBe('direction');
    expect(await field('scroll', 'sideways')).toBe('direction');
    expect(await field('scroll', 'down', '1.5')).toBe('amount');
    expect(await field('scroll', 'down', '--into-view', '@e2')).toBe('direction');
    expect(await field('scroll', '--in', '@e1', '--into-view', '@e2')).toBe('into-view');
    expect(await field('close', 'abc')).toBe('tabs');
    expect(await field('download', '--dir', join(files, 'missing'))).toBe('dir');
    expect(await field('fill', '@e1')).toBe('value');
    expect(await field('select', '@e1')).toBe('options');
    expect(await field('drag', '@e1')).toBe('to');
    expect(await field('record', 'start', '--quality', '0')).toBe('quality');
    expect(await field('network', '--status', '999x')).toBe('status');
    expect(await field('fill', '@e1', 'a', 'b')).toBe('command');
  });

  it('a missing flag is named as typed, with its spelling (not only its field), and the usage line', async () => {
    const error = await refused('get', 'value', '#email');
    expect(error.details.field).toBe('selector');
    expect(error.message).toBe('selector: is required: pass -s, --selector <ref|css> (usage: `chrome-relay get <what> [ref] [attribute]`)');
    const fill = await refused('fill');
    expect(fill.message).toBe('ref: is required (usage: `chrome-relay fill <ref> <value>`)');
  });

  it('one ref grammar: @e12 and e12 alike, as an argument, after -s, and where a ref is optional', async () => {
    expect((await sent('get', 'text', 'e26')).params).toEqual({ what: 'text', ref: 'e26' });
    expect((await sent('get', 'text', '@e26')).params).toEqual({ what: 'text', ref: 'e26' });
    expect((await sent('get', 'text', '-s', 'e26')).params).toEqual({ what: 'text', ref: 'e26' });
    expect((await sent('get', 'text', '-s', '@e26')).params).toEqual({ what: 'text', ref: 'e26' });
    expect((await sent('get', 'text', '-s', '#x')).params).toEqual({ what: 'text', selector: '#x' });
    expect((await sent('get', 'attr', 'e3', 'href')).params).toEqual({ what: 'attr', ref: 'e3', name: 'href' });
    expect((await sent('click', 'e4')).params).toEqual({ ref: 'e4' });
    expect((await sent('type', 'hi', '-s', 'e7')).params).toEqual({ text: 'hi', ref: 'e7' });
    expect((await sent('snapshot', '-s', 'e5')).params).toEqual({ scopeRef: 'e5' });
    expect((await sent('drag', 'e1', '@e2')).params).toEqual({ from: 'e1', to: 'e2' });
    expect((await refused('get', 'text', '-s', '@e0')).details.field).toBe('selector');
  });

  it('bad input is invalid_arguments also when no browser is connected', async () => {
    const home = process.env.CHROME_RELAY_HOME;
    process.env.CHROME_RELAY_HOME = mkdtempSync(join(tmpdir(), 'cr-cmdline-nohost-'));
    try {
      expect((await refused('navigate', 'https://example.com', '--wait-timeout', '300000')).toData()).toMatchObject({ code: 'invalid_arguments', details: { field: 'wait-timeout' } });
      expect((await refused('tabs')).code).toBe('extension_not_connected');
    } finally {
      process.env.CHROME_RELAY_HOME = home;
    }
  });
});

describe('setup commands act on no tab', () => {
  it('a program-level --tab, --workspace or --group before them is refused, naming the flag', async () => {
    for (const [flag, value, command] of [['--tab', '5', 'skill'], ['--workspace', 'w', 'skill'], ['--group', 'g', 'extension']] as const) {
      const args = command === 'extension' ? [flag, value, 'extension', 'path'] : [flag, value, command];
      const error = await refused(...args);
      expect(error.toData(), args.join(' ')).toMatchObject({ code: 'invalid_arguments', phase: 'cli', details: { field: flag.slice(2) } });
      expect(error.message).toContain(`it acts on no tab. Drop ${flag}.`);
    }
  });
});
