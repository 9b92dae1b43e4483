/**
 * `chrome-relay mcp`: a Model Context Protocol server on stdio, serving the tools of the groups it was
 * started with (mcpTools.ts: core, and those `--caps` names) over ONE persistent socket to the host
 * (hostSession.ts). It starts and lists its tools with no browser running; the first call that needs a browser
 * while none at all is connected starts the dedicated one and says so (onDemand.ts; never beside the person's own
 * browser; `--no-launch` turns it off, and calls then fail as tool errors, extension_not_connected, and work as soon
 * as a browser connects — no restart). A browser the server started ends with it.
 *
 * The session is one agent identity for leases: --agent / $CHROME_RELAY_AGENT, else `mcp-<pid>`.
 *
 * Its life is its client's: when stdin ends (the client closed it, or exited), calls in flight get
 * DRAIN_MS to answer, the ones still running are failed (hostSession.ts: native_host_disconnected,
 * cause client_closed), every answer is written, and the server closes — releasing the host socket
 * and with it the process, so the next server started under the same --agent name meets no ghost.
 *
 * Built as its own bundle (dist/mcp.cjs) so that no other command loads the SDK.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { asInterrupted, isHostTool, isToolName, parseParams, parseResult, RelayError, VERSION, type AfterSnapshot, type ClientResponse, type McpGroup, type ToolName } from '@chrome-relay/protocol';
import { skewNotices } from '../versionSkew.js';
import type { Endpoint } from '../remote/endpoint.js';
import { HostSession } from './hostSession.js';
import { LineTransport } from './lineTransport.js';
import { wantsBrowser, type BrowserOnDemand, type Started } from './onDemand.js';
import { mcpError, mcpResult, notServed, type McpCallResult } from './mcpResults.js';
import { mcpToolList, prepareMcpCall, servedBy, serverInstructions, type McpServed, type PreparedCall } from './mcpTools.js';
import type { WordsContext } from './mcpWords.js';

export interface McpServerOptions {
  home: string;
  profile?: string | undefined;
  agent: string;
  /** Deadline of each call (the global --timeout; default 30000). A tool's own budget (wait) goes inside it. */
  timeoutMs?: number;
  /** The tool groups served (protocol parseCaps: core, and those `--caps` names). */
  groups: readonly McpGroup[];
  /** The browser is elsewhere (CHROME_RELAY_ENDPOINT, --endpoint): one link to its bridge serves every call. */
  endpoint?: Endpoint | undefined;
  /** Start the dedicated browser when a call needs one and none is connected (absent: `--no-launch`, or an endpoint). */
  onDemand?: BrowserOnDemand | undefined;
}

/**
 * How long calls in flight may still run once the client closed stdin; past it they are failed. A
 * click or fill answers in tens of ms; a long wait is cut. Short, so the process is gone well within
 * 2 s of its client even on a loaded machine.
 */
const DRAIN_MS = 500;

type Session = Pick<HostSession, 'call' | 'close' | 'useProfile'>;

/**
 * tools/call as the SDK's Protocol layer pre-parses it: by its method only. The SDK's Server then checks
 * the whole request and answers a malformed one (no name, arguments not an object) with -32602, invalid
 * params; given the full schema here, the pre-parse would throw first and the client would get -32603,
 * internal error, and a schema dump.
 */
const ToolsCallByMethod = CallToolRequestSchema.pick({ method: true }).loose();

/**
 * The call on the host; when no browser at all is connected and the server may start one, it starts the dedicated
 * browser first (a question the host answers itself, `status`, needs none) and the call goes there.
 */
async function callWithBrowser(session: Session, options: McpServerOptions, tool: ToolName, params: Record<string, unknown>, prepared: PreparedCall): Promise<{ response: ClientResponse; started?: Started }> {
  const envelope = { agent: options.agent, snapshot: prepared.snapshot };
  try {
    return { response: await session.call(tool, params, prepared.timeoutMs, envelope) };
  } catch (error) {
    if (options.onDemand === undefined || isHostTool(tool) || !wantsBrowser(error)) throw error;
    const started = await options.onDemand.start();
    session.useProfile(started.launched.profile);
    return { response: await session.call(tool, params, prepared.timeoutMs, envelope), started };
  }
}

/** One call, from the MCP arguments to its result: the call's own path, shared with nothing. */
async function runCall(session: Session, options: McpServerOptions, tool: ToolName, args: Record<string, unknown>, words: WordsContext): Promise<McpCallResult> {
  const prepared = prepareMcpCall(tool, args, options.agent, options.timeoutMs);
  const params = parseParams(tool, prepared.params, 'cli') as Record<string, unknown>;
  const { response, started } = await callWithBrowser(session, options, tool, params, prepared);
  // Said whatever the call's outcome: the browser runs now.
  const startedNotice = started === undefined ? [] : [{ type: 'text' as const, text: JSON.stringify({ relayNotice: { notice: 'browser_started', message: started.message } }) }];
  if (!response.ok) {
    const failed = mcpError(asInterrupted(RelayError.fromData(response.error)), tool, words);
    return { ...failed, content: [...failed.content, ...startedNotice] };
  }
  const result = parseResult(tool, response.result) as Record<string, unknown>;
  const after = prepared.snapshot === undefined ? undefined : (response.snapshot ?? (await snapshotApart(session, options, prepared, result)));
  const out = mcpResult(tool, params, result, after, words);
  const notices = skewNotices(response.versions.extension?.version ?? null);
  if (notices.length > 0) out.content.push({ type: 'text', text: notices.map((n) => JSON.stringify({ relayNotice: n })).join('\n') });
  out.content.push(...startedNotice);
  return out;
}

/** A host or extension of another build answers no snapshot with the action: take it as a call of its own. */
async function snapshotApart(session: Session, options: McpServerOptions, prepared: PreparedCall, result: Record<string, unknown>): Promise<AfterSnapshot> {
  try {
    const tab = result.tabId;
    if (typeof tab !== 'number') throw new RelayError('invalid_arguments', 'The action names no tab to snapshot after it.', { tool: 'snapshot', phase: 'cli', details: { field: 'snapshot' } });
    const response = await session.call('snapshot', { ...prepared.snapshot, tab }, options.timeoutMs ?? prepared.timeoutMs, { agent: options.agent });
    if (!response.ok) return { ok: false, error: response.error };
    return { ok: true, result: parseResult('snapshot', response.result) };
  } catch (error) {
    return { ok: false, error: RelayError.from(error, 'snapshot', 'cli').toData() };
  }
}

/** Serve on stdin/stdout until the client closes stdin. */
export async function runMcpServer(options: McpServerOptions): Promise<void> {
  const served: McpServed = servedBy(options.groups);
  const words: WordsContext = { served: served.tools };
  const session = new HostSession({ home: options.home, profile: options.profile, endpoint: options.endpoint });
  const server = new Server({ name: 'chrome-relay', version: VERSION }, { capabilities: { tools: {} }, instructions: serverInstructions(served) });
  const tools = mcpToolList(served);
  const inFlight = new Set<Promise<McpCallResult>>();

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(ToolsCallByMethod, (request): Promise<McpCallResult> => {
    // Checked whole by the SDK before this runs (ToolsCallByMethod): parsing again only gives it its type.
    const { name, arguments: args } = CallToolRequestSchema.parse(request).params;
    if (!isToolName(name) || !served.tools.has(name)) return Promise.resolve(notServed(name, words));
    const call = runCall(session, options, name, args ?? {}, words).catch((error: unknown) => mcpError(error, name, words));
    inFlight.add(call);
    void call.finally(() => inFlight.delete(call));
    return call;
  });

  const transport = new LineTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  transport.onInputEnd = () => {
    void (async () => {
      // Calls still running past the drain are failed by closing the session; each then answers.
      const cut = setTimeout(() => session.close(), DRAIN_MS);
      await Promise.allSettled([...inFlight]);
      clearTimeout(cut);
      session.close();
      // The SDK writes each answer once its handler settled: let it, then wait for the writes.
      await new Promise((resolve) => setImmediate(resolve));
      await transport.drained();
      await server.close();
    })();
  };
  await server.connect(transport);
  await closed;
  session.close();
  await options.onDemand?.stop();
}
