/**
 * Hostile frames on the host's socket, by class, with the host alive and serving after each: `tabs`
 * answers, the host pid is the same, and its RSS stays bounded. Every answer the host sends must be a
 * valid response; a frame the host cannot read is answered invalid_arguments (id 0) and that connection
 * closed; a readable request of the wrong shape is answered and the connection kept.
 */
import { ClientResponseSchema } from '../../packages/protocol/src/index.js';
import { connectRaw, rawFrame, requestFrame, rssMb, type RawClient } from './rawClient.js';
import { isAlive, liveHost, sleep, within, type LiveSuite } from './suite.js';

const PHASE = 'socket frames';
/** RSS the host may reach during any class (it idles at ~50 MB), and the growth a class may leave. */
const RSS_CEILING_MB = 250;
const RSS_GROWTH_MB = 80;

interface Expect {
  /** Codes an answer may carry ('ok' for a success). */
  codes: readonly string[];
  /** Whether the host must hang up on this connection. */
  closes: boolean;
  /** No answer at all is fine (a frame cut short, then our own close). */
  silent?: boolean;
}

export async function socketFuzz(suite: LiveSuite): Promise<() => Promise<void>> {
  const { relay, report, rng } = suite;
  const host = liveHost(relay);
  const phase = report.phase(PHASE);
  const started = Date.now();
  const baseline = rssMb(host.pid);
  report.measure(PHASE, 'host RSS at start', `${baseline} MB`, baseline < RSS_CEILING_MB);

  const answerCode = (answer: unknown): string => {
    const parsed = ClientResponseSchema().safeParse(answer);
    if (!parsed.success) return 'malformed answer';
    return parsed.data.ok ? 'ok' : parsed.data.error.code;
  };

  async function probe(klass: string, label: string, bytes: Uint8Array | Uint8Array[], expect: Expect): Promise<void> {
    let client: RawClient;
    try {
      client = await connectRaw(host.socket);
    } catch (error) {
      report.fail(PHASE, `${klass}: ${label}`, `could not connect: ${String(error)}`);
      return;
    }
    for (const part of Array.isArray(bytes) ? bytes : [bytes]) client.write(part);
    if (expect.silent) {
      await sleep(20);
      client.destroy();
      report.count(PHASE, `${klass}: closed by us`);
      return;
    }
    const answer = await client.next(3000);
    const code = answer === null ? 'no answer' : answerCode(answer);
    report.count(PHASE, `${klass}: ${code}`);
    if (!expect.codes.includes(code)) report.fail(PHASE, `${klass}: ${label}`, `answered ${code}, expected ${expect.codes.join('|')}`, JSON.stringify(answer)?.slice(0, 300));
    if (expect.closes && (await within(2000, () => client.isClosed())) === null) report.fail(PHASE, `${klass}: ${label}`, 'the host kept the connection of an unreadable stream open');
    if (!expect.closes && client.isClosed()) report.fail(PHASE, `${klass}: ${label}`, 'the host closed a connection whose stream was still readable');
    client.destroy();
  }

  async function healthy(klass: string, before: number): Promise<void> {
    const alive = isAlive(host.pid) && relay.hostPid() === host.pid;
    if (!alive) report.fail(PHASE, klass, 'the host died or was replaced');
    const tabs = await relay.cli('tabs');
    if (tabs.code !== 0) report.fail(PHASE, klass, `tabs failed after the class: ${tabs.stderr.slice(0, 300)}`);
    const after = rssMb(host.pid);
    report.measure(PHASE, `${klass}: host RSS before → after`, `${before} → ${after} MB`, after < RSS_CEILING_MB && after - before < RSS_GROWTH_MB);
  }

  const classes: [string, () => Promise<void>][] = [
    [
      'lengths',
      async () => {
        const unreadable: Expect = { codes: ['invalid_arguments'], closes: true };
        await probe('lengths', 'empty body', rawFrame(''), unreadable);
        await probe('lengths', 'declares 2^32-1', rawFrame('', 0xffffffff), unreadable);
        await probe('lengths', 'declares 64 MiB + 1', rawFrame('', 64 * 1024 * 1024 + 1), unreadable);
        await probe('lengths', 'declares just over the request limit', rawFrame('', 1024 * 1024 + 64 * 1024 + 1), unreadable);
        await probe('lengths', 'header split across writes', [Buffer.from([2, 0]), Buffer.from([0, 0]), Buffer.from('{}')], { codes: ['invalid_arguments'], closes: false });
        for (let i = 0; i < 20; i++) {
          const body = JSON.stringify({ id: i + 1, tool: 'status', params: {}, timeoutMs: 1000, client: { version: '0', protocolVersion: 1 } });
          const declared = rng.int(0, body.length * 2);
          // A shorter length cuts the JSON (bad JSON); a longer one waits for bytes that never come.
          if (declared < body.length) await probe('lengths', `declares ${declared} of ${body.length}`, rawFrame(body, declared), unreadable);
          else if (declared > body.length) await probe('lengths', `declares ${declared} of ${body.length}`, rawFrame(body, declared), { codes: [], closes: false, silent: true });
        }
      },
    ],
    [
      'truncation',
      async () => {
        for (let i = 0; i < 30; i++) {
          const frame = requestFrame(i + 1, rng.pick(['tabs', 'status', 'snapshot']), {}, 2000);
          await probe('truncation', `cut at ${i}`, frame.subarray(0, rng.int(1, frame.length - 1)), { codes: [], closes: false, silent: true });
        }
      },
    ],
    [
      'invalid UTF-8',
      async () => {
        for (const bytes of [[0xff, 0xfe], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0x80, 0x22, 0x7d], [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
          await probe('invalid UTF-8', bytes.join(','), rawFrame(new Uint8Array(bytes)), { codes: ['invalid_arguments'], closes: true });
        }
      },
    ],
    [
      'invalid JSON',
      async () => {
        for (const text of ['{', 'nul', '[1,]', '{"id":1,}', "{'id':1}", 'NaN', '\u0000', '"unterminated', '{"a":1}{"b":2}']) {
          await probe('invalid JSON', text, rawFrame(text), { codes: ['invalid_arguments'], closes: true });
        }
        for (let i = 0; i < 20; i++) {
          const noise = new Uint8Array(rng.int(1, 200)).map(() => rng.int(0, 255));
          await probe('invalid JSON', `noise ${i}`, rawFrame(noise), { codes: ['invalid_arguments'], closes: true });
        }
      },
    ],
    [
      'wrong shapes',
      async () => {
        const base = { id: 7, tool: 'status', params: {}, timeoutMs: 1000, client: { version: '0.1.0', protocolVersion: 1 } };
        const shapes: unknown[] = [
          1, 'text', [], null, true, {},
          { ...base, id: -1 }, { ...base, id: 1.5 }, { ...base, id: Number.MAX_SAFE_INTEGER + 2 }, { ...base, id: '7' },
          { ...base, tool: '' }, { ...base, tool: 5 }, { ...base, tool: 'x'.repeat(100_000) },
          { ...base, params: [] }, { ...base, params: null }, { ...base, params: 'p' },
          { ...base, timeoutMs: 0 }, { ...base, timeoutMs: -1 }, { ...base, timeoutMs: 1e20 }, { ...base, timeoutMs: 'soon' },
          { ...base, client: null }, { ...base, extra: true }, { ...base, target: { tab: -3 } }, { ...base, target: { nope: 1 } },
          { ...base, agent: 'bad agent' }, { ...base, agent: 'x'.repeat(100) },
          { ...base, tool: 'status', params: { nope: 1 } }, { ...base, tool: 'rearm', params: { x: 1 } },
          { ...base, tool: 'tabs', params: { x: 1 } }, { ...base, tool: 'snapshot', params: { tab: 'one' } }, { ...base, tool: 'click', params: { ref: '<script>' } },
        ];
        for (const shape of shapes) {
          // A valid envelope naming no real tool reaches the extension, which says so.
          await probe('wrong shapes', JSON.stringify(shape).slice(0, 80), rawFrame(JSON.stringify(shape)), { codes: ['invalid_arguments', 'unsupported_tool'], closes: false });
        }
      },
    ],
    [
      'deep nesting',
      async () => {
        let nested = '1';
        for (let i = 0; i < 5000; i++) nested = `{"a":${nested}}`;
        const deep = `{"id":1,"tool":"tabs","params":${nested},"timeoutMs":1000,"client":{"version":"0","protocolVersion":1}}`;
        await probe('deep nesting', 'params nested 5,000 deep', rawFrame(deep), { codes: ['invalid_arguments'], closes: true });
        await probe('deep nesting', 'malformed, 200,000 brackets', rawFrame('['.repeat(200_000)), { codes: ['invalid_arguments'], closes: true });
        await probe('deep nesting', 'params nested 70 deep', rawFrame(`{"id":1,"tool":"tabs","params":${'{"a":'.repeat(70)}1${'}'.repeat(70)},"timeoutMs":1000,"client":{"version":"0","protocolVersion":1}}`), { codes: ['invalid_arguments'], closes: true });
      },
    ],
    [
      'unknown tools',
      async () => {
        for (let i = 0; i < 15; i++) {
          const tool = rng.pick(['no_such_tool', 'reconnect', 'TABS', 'tabs ', '__proto__', 'constructor', `t${rng.int(0, 1e6)}`, '../tabs']);
          await probe('unknown tools', tool, requestFrame(i + 1, tool, {}, 3000), { codes: ['unsupported_tool', 'invalid_arguments'], closes: false });
        }
      },
    ],
    [
      '100 concurrent connections',
      async () => {
        // 100 well-behaved clients at once, with 20 broken ones among them that must not disturb them.
        const clients = await Promise.all(Array.from({ length: 100 }, () => connectRaw(host.socket)));
        const broken = await Promise.all(Array.from({ length: 20 }, () => connectRaw(host.socket)));
        clients.forEach((client, i) => {
          client.write(requestFrame(1000 + i, i % 2 === 0 ? 'tabs' : 'status', {}, 15_000));
          if (i % 5 === 0) broken[i / 5]?.write(rawFrame('{broken'));
        });
        const answers = await Promise.all(clients.map((client) => client.next(20_000)));
        for (const client of broken) {
          const answer = await client.next(3000);
          const parsed = ClientResponseSchema().safeParse(answer);
          if (!parsed.success || parsed.data.ok || parsed.data.error.code !== 'invalid_arguments') report.fail(PHASE, '100 concurrent: a broken neighbour', 'expected invalid_arguments', JSON.stringify(answer)?.slice(0, 200));
          client.destroy();
        }
        answers.forEach((answer, i) => {
          const parsed = ClientResponseSchema().safeParse(answer);
          const code = parsed.success ? (parsed.data.ok ? 'ok' : parsed.data.error.code) : 'no answer';
          report.count(PHASE, `100 concurrent: ${code}`);
          if (!parsed.success || !parsed.data.ok || parsed.data.id !== 1000 + i) report.fail(PHASE, `100 concurrent: connection ${i}`, `expected ok for id ${1000 + i}`, JSON.stringify(answer)?.slice(0, 200));
        });
        for (const client of clients) client.destroy();
      },
    ],
    [
      'partial frames held open (memory)',
      async () => {
        // Each connection parks most of a maximum-size request: together far over the host's budget.
        const clients = await Promise.all(Array.from({ length: 30 }, () => connectRaw(host.socket)));
        for (const client of clients) client.write(rawFrame(Buffer.alloc(1024 * 1024, 0x20), 1024 * 1024 + 1000));
        await sleep(1500);
        const answered = clients.filter((c) => c.answers.length > 0).length;
        report.count(PHASE, 'partial frames: refused over budget', answered);
        report.count(PHASE, 'partial frames: held', clients.length - answered);
        if (answered === 0) report.fail(PHASE, 'partial frames held open', 'no connection was refused although 30 MiB of partial frames exceed the budget');
        for (const client of clients) client.destroy();
      },
    ],
    [
      'client that never reads',
      async () => {
        const client = await connectRaw(host.socket, { read: false });
        const frame = requestFrame(1, 'status', {}, 1000);
        const many = Buffer.concat(Array.from({ length: 5000 }, () => frame));
        client.write(many);
        await sleep(1500);
        report.count(PHASE, 'never reads: 5,000 requests sent', 1);
        client.destroy();
      },
    ],
  ];

  for (const [klass, run] of classes) {
    const before = rssMb(host.pid);
    await run();
    await healthy(klass, before);
  }

  // 500 idle connections: the host stays up and serving with them open, and closes them on its own.
  const idleBefore = rssMb(host.pid);
  const idle = await Promise.all(Array.from({ length: 500 }, () => connectRaw(host.socket)));
  await healthy('500 idle connections', idleBefore);
  const openedAt = Date.now();
  phase.ms += Date.now() - started;
  // Checked later (after other phases ran) so the idle timeout costs no wall time of its own.
  return async () => {
    const closedWithin = await within(Math.max(0, openedAt + 40_000 - Date.now()), () => idle.every((c) => c.isClosed()), 250);
    const open = idle.filter((c) => !c.isClosed()).length;
    const last = Math.max(...idle.map((c) => c.closedAt() ?? Date.now()));
    report.measure(PHASE, '500 idle connections closed by the host (idle limit 30 s)', closedWithin === null ? `${open} still open after 40 s` : `all, the last ${((last - openedAt) / 1000).toFixed(1)} s after opening`, closedWithin !== null);
    report.count(PHASE, '500 idle: closed by the host', 500 - open);
    for (const client of idle) client.destroy();
  };
}
