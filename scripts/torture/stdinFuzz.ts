/**
 * Hostile frames on the host's stdin (the extension's side), with the built host run by hand. A frame
 * that breaks the stream (bad JSON — however deeply nested —, invalid UTF-8, an impossible length) ends
 * the host cleanly: exit 1, a log line naming it, no bug line, its socket and descriptor gone. Anything
 * else (wrong shapes, answers to calls it never made, nesting past its limit, a second hello) is logged
 * and the host keeps serving. A hello naming another extension is refused before any socket exists.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { connectRaw, rawFrame, requestFrame } from './rawClient.js';
import { hello, HOST_BUG, runFiles, spawnHost, type HostProcess } from './hostProcess.js';
import { within, type Suite } from './suite.js';

const PHASE = 'stdin frames';

export async function stdinFuzz(suite: Suite): Promise<void> {
  const { report, rng } = suite;
  const started = Date.now();
  const hosts: HostProcess[] = [];
  const fresh = (): HostProcess => {
    const host = spawnHost(mkdtempSync(join(suite.scratch, 'stdin-')));
    hosts.push(host);
    return host;
  };
  const noBug = (host: HostProcess, what: string): void => {
    const bug = HOST_BUG.exec(host.stderr());
    if (bug) report.fail(PHASE, what, `host log shows a bug: ${bug[0]}`, host.stderr().slice(-600));
  };

  try {
    // Non-fatal frames, all to one host that must keep serving.
    const host = fresh();
    host.send(hello());
    const socket = await host.socket();
    if (socket === null) {
      report.fail(PHASE, 'start', 'the host never published its socket', host.stderr().slice(-600));
      return;
    }
    const deep = (n: number): string => `${'['.repeat(n)}${']'.repeat(n)}`;
    const survivable: [string, Uint8Array][] = [
      ['result without id', rawFrame('{"type":"result","ok":true,"result":1}')],
      ['unknown type', rawFrame('{"type":"nope","id":1}')],
      ['not an object', rawFrame('[1,2,3]')],
      ['null', rawFrame('null')],
      ['answer to a call never made', rawFrame('{"type":"result","id":987654,"ok":true,"result":1}')],
      ['error with a made-up code', rawFrame('{"type":"error","id":987655,"error":{"code":"made_up","message":"x"}}')],
      ['result nested 3,000 deep', rawFrame(`{"type":"result","id":987656,"ok":true,"result":${deep(3000)}}`)],
      ['result nested 200,000 deep', rawFrame(`{"type":"result","id":987657,"ok":true,"result":${deep(200_000)}}`)],
      ['brackets inside a string', rawFrame(`{"type":"result","id":987658,"ok":true,"result":"${'['.repeat(100_000)}"}`)],
      // Malformed, but the depth bound sees it first: never parsed, the stream is still in sync.
      ['malformed, nested 200,000 deep', rawFrame('['.repeat(200_000))],
      ['a second hello', rawFrame(JSON.stringify(hello()))],
    ];
    for (let i = 0; i < 10; i++) {
      // Ids far from the host's own (which count from 1), so no random frame settles the call made below.
      const fields: Record<string, unknown> = { type: rng.pick(['result', 'error', 'hello', 'call']), id: rng.pick<unknown>([900_001, -1, 'x', null, 2 ** 53, 0.5]) };
      if (rng.chance(0.5)) fields.ok = rng.pick<unknown>([true, false, 'yes']);
      if (rng.chance(0.5)) fields.error = rng.pick<unknown>([{}, null, { code: 'timeout' }, 'error']);
      survivable.push([`random shape ${i}`, rawFrame(JSON.stringify(fields))]);
    }
    for (const [, frame] of survivable) {
      host.sendRaw(frame);
      report.count(PHASE, 'logged, host kept serving');
    }
    // Let the host read them all before the call below (stdin and the socket are separate streams).
    await within(3000, () => (host.stderr().match(/ignoring a malformed message|dropping an answer/g) ?? []).length >= survivable.length - 1);
    // Still serving: a call goes out on stdout and its answer comes back to the client.
    const client = await connectRaw(socket);
    client.write(requestFrame(5, 'tabs', {}, 5000));
    const call = await within(3000, () => host.frames.some((f) => (f as { type?: string; tool?: string }).tool === 'tabs'));
    const forwarded = host.frames.find((f) => (f as { tool?: string }).tool === 'tabs') as { id?: number } | undefined;
    if (call === null || forwarded?.id === undefined) report.fail(PHASE, 'after survivable frames', 'the host did not forward a call', host.stderr().slice(-600));
    else {
      host.send({ type: 'result', id: forwarded.id, ok: true, result: { windows: [] } });
      const answer = (await client.next(3000)) as { id?: number; ok?: boolean } | null;
      if (answer?.id !== 5 || answer.ok !== true) report.fail(PHASE, 'after survivable frames', 'the answer did not reach the client', JSON.stringify(answer));
    }
    client.destroy();
    if (host.exited() !== null) report.fail(PHASE, 'survivable frames', `the host exited (${JSON.stringify(host.exited())})`, host.stderr().slice(-600));
    noBug(host, 'survivable frames');

    // Frames that break the stream: each ends its own host cleanly.
    const fatal: [string, Uint8Array][] = [
      ['malformed JSON', rawFrame('{"type":')],
      ['malformed, nested 2,000 deep', rawFrame('['.repeat(2000))],
      ['invalid UTF-8', rawFrame(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]))],
      ['declares 64 MiB + 1', rawFrame('', 64 * 1024 * 1024 + 1)],
      ['noise', rawFrame(new Uint8Array(64).map(() => rng.int(0x80, 0xff)))],
    ];
    await Promise.all(
      fatal.map(async ([what, frame]) => {
        const victim = fresh();
        victim.send(hello());
        await victim.socket();
        victim.sendRaw(frame);
        const exit = await victim.waitExit(5000);
        report.count(PHASE, `stream broken: exit ${exit?.code ?? 'none'}`);
        if (exit?.code !== 1) report.fail(PHASE, `fatal: ${what}`, `expected exit 1, got ${JSON.stringify(exit)}`, victim.stderr().slice(-600));
        else if (!/corrupt frame from the extension/.test(victim.stderr())) report.fail(PHASE, `fatal: ${what}`, 'no log line naming the corrupt frame', victim.stderr().slice(-600));
        if (runFiles(victim.home).length > 0) report.fail(PHASE, `fatal: ${what}`, `left ${runFiles(victim.home).join(', ')} behind`);
        noBug(victim, `fatal: ${what}`);
      }),
    );

    // A hello naming another extension: refused before any socket or descriptor exists.
    const foreign = fresh();
    foreign.send(hello('a'.repeat(32)));
    const refused = await foreign.waitExit(5000);
    report.count(PHASE, `foreign hello: exit ${refused?.code ?? 'none'}`);
    if (refused?.code !== 1 || !/refusing the hello/.test(foreign.stderr())) report.fail(PHASE, 'foreign hello', `expected a refusal and exit 1, got ${JSON.stringify(refused)}`, foreign.stderr().slice(-400));
    if (runFiles(foreign.home).some((f) => f.endsWith('.sock') || f.endsWith('.json'))) report.fail(PHASE, 'foreign hello', `published ${runFiles(foreign.home).join(', ')}`);
    noBug(foreign, 'foreign hello');

    // stdin closes (the browser exits): exit 0 and clean up.
    host.child.stdin?.end();
    const eof = await host.waitExit(5000);
    report.count(PHASE, `stdin closed: exit ${eof?.code ?? 'none'}`);
    if (eof?.code !== 0) report.fail(PHASE, 'stdin closed', `expected exit 0, got ${JSON.stringify(eof)}`, host.stderr().slice(-400));
    if (existsSync(socket) || runFiles(host.home).length > 0) report.fail(PHASE, 'stdin closed', 'left its socket or descriptor behind');
  } finally {
    for (const host of hosts) host.kill();
    report.phase(PHASE).ms += Date.now() - started;
  }
}
