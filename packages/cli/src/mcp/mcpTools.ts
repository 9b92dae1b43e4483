/**
 * The MCP face of the tool registry: every non-internal entry becomes an MCP tool with the same name,
 * its JSON Schema derived from the entry's zod params (without `agent`: the MCP session is the agent),
 * its title and description from the entry, and read-only/destructive annotations from its policy.
 * Results are presented as the CLI presents them: a snapshot is the same text `chrome-relay snapshot`
 * prints, a screenshot an image; failures are tool errors carrying the same human line and relayError
 * block as the CLI's stderr.
 */
import {
  DEFAULT_CALL_TIMEOUT_MS,
  formatErrorForStderr,
  isToolName,
  RelayError,
  toSafeJson,
  TOOL_NAMES,
  TOOLS,
  WAIT_REPORT_MS,
  type ToolName,
} from '@chrome-relay/protocol';
import { snapshotText } from '../renderSnapshot.js';

export interface McpToolInfo {
  name: string;
  title: string;
  description: string;
  inputSchema: { type: 'object'; properties?: Record<string, unknown>; required?: string[]; [key: string]: unknown };
  annotations: { title: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: boolean };
}

export type McpContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
export interface McpCallResult {
  content: McpContent[];
  isError?: boolean;
  [key: string]: unknown;
}

/** Params the session fills itself, hidden from the MCP input schema. */
const SESSION_PARAMS = ['agent'];

const MCP_TOOLS: readonly ToolName[] = TOOL_NAMES.filter((name) => TOOLS[name].internal !== true);

function inputSchemaOf(tool: ToolName): McpToolInfo['inputSchema'] {
  const params = TOOLS[tool].params as unknown as { toJSONSchema(options: { io: 'input'; unrepresentable: 'any' }): Record<string, unknown> };
  const schema = params.toJSONSchema({ io: 'input', unrepresentable: 'any' });
  const { $schema: _ignored, ...rest } = schema;
  const properties = { ...((rest.properties as Record<string, unknown> | undefined) ?? {}) };
  for (const hidden of SESSION_PARAMS) delete properties[hidden];
  const required = ((rest.required as string[] | undefined) ?? []).filter((name) => !SESSION_PARAMS.includes(name));
  delete rest.required;
  return { ...rest, type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

export function mcpToolList(): McpToolInfo[] {
  return MCP_TOOLS.map((tool) => {
    const entry = TOOLS[tool];
    const title = entry.cli?.summary ?? tool;
    const inputSchema = inputSchemaOf(tool);
    return {
      name: tool,
      title,
      description: entry.description,
      inputSchema,
      annotations: {
        title,
        readOnlyHint: !entry.mutates,
        destructiveHint: entry.destructive === true,
        idempotentHint: !entry.mutates,
        openWorldHint: true,
      },
    };
  });
}

/** The call as the host gets it: params with the session's agent, and the call's deadline. */
export function prepareMcpCall(tool: ToolName, args: Record<string, unknown>, agent: string, callTimeoutMs: number = DEFAULT_CALL_TIMEOUT_MS): { params: Record<string, unknown>; timeoutMs: number } {
  const params: Record<string, unknown> = { ...args };
  if (Object.prototype.hasOwnProperty.call(TOOLS[tool].params.shape, 'agent')) params.agent = agent;
  const budget = TOOLS[tool].cli?.budget;
  if (budget === undefined) return { params, timeoutMs: callTimeoutMs };
  // The tool's own budget (wait's timeoutMs): the call's deadline goes around it, as on the command line.
  const own = typeof params[budget] === 'number' ? (params[budget] as number) : callTimeoutMs;
  params[budget] = own;
  return { params, timeoutMs: own + WAIT_REPORT_MS };
}

/** A tool's result as MCP content, by the entry's output kind. */
export function mcpResult(tool: ToolName, params: Readonly<Record<string, unknown>>, result: Record<string, unknown>): McpCallResult {
  switch (TOOLS[tool].cli?.output) {
    case 'snapshot':
      return { content: [{ type: 'text', text: snapshotText(result as unknown as Parameters<typeof snapshotText>[0], { diff: params.diff === true }) }] };
    case 'image': {
      const { data, ...rest } = result as { data: string; format: string };
      return { content: [{ type: 'image', data, mimeType: rest.format === 'jpeg' ? 'image/jpeg' : 'image/png' }, { type: 'text', text: toSafeJson(rest, 2) }] };
    }
    case 'frames': {
      // Frames are many images: the summary, and the last frame to look at.
      const frames = (result.frames as { data: string; timestamp: number }[] | undefined) ?? [];
      const last = frames.at(-1);
      const summary = { tabId: result.tabId, frames: frames.length, dropped: result.dropped, timestamps: frames.map((f) => f.timestamp) };
      return { content: [{ type: 'text', text: toSafeJson(summary, 2) }, ...(last ? [{ type: 'image' as const, data: last.data, mimeType: 'image/jpeg' }] : [])] };
    }
    default:
      return { content: [{ type: 'text', text: toSafeJson(result, 2) }] };
  }
}

/** A failure as an MCP tool error: the same human line and relayError block the CLI prints on stderr. */
export function mcpError(error: unknown, tool: string): McpCallResult {
  const data = RelayError.from(error, tool, 'cli').toData();
  return { isError: true, content: [{ type: 'text', text: formatErrorForStderr(data).trimEnd() }] };
}

export function unknownTool(name: string): McpCallResult {
  const known = isToolName(name) && TOOLS[name].internal !== true;
  return mcpError(
    new RelayError('unsupported_tool', known ? `${name}` : `There is no tool "${name}"; list the tools again (tools/list).`, { tool: name, phase: 'cli', details: { tool: name } }),
    name,
  );
}
