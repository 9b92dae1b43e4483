/**
 * A tool's answer as an MCP call result: `structuredContent` is the object the CLI prints with --json,
 * and the text is what the CLI prints for an agent (present.ts): a snapshot is the text
 * `chrome-relay snapshot` prints, a list one line per item, anything else one line of JSON without the
 * fields that carry nothing. An action asked for a snapshot after
 * it adds that snapshot (structured: `{ result, snapshot }`, as --json). Where the CLI writes image
 * bytes to files (a screenshot, recorded frames), they come as image content instead, which a model
 * can look at, and structuredContent is the rest of the result.
 *
 * A failure is an `isError` result: the CLI's human line and relayError block as text, the relayError
 * as structuredContent (same code, details and reason), its message in MCP words (mcpWords.ts).
 */
import {
  formatErrorForStderr,
  isToolName,
  RelayError,
  toSafeJson,
  TOOLS,
  type AfterSnapshot,
  type ToolName,
} from '@chrome-relay/protocol';
import { afterOutcome, withDownloadMoved } from '../outputs.js';
import { compact as compactResult, lineText, listLines } from '../present.js';
import { snapshotText } from '../renderSnapshot.js';
import { mcpWords, type WordsContext } from './mcpWords.js';

export type McpContent = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };
export interface McpCallResult {
  content: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

type Result = Record<string, unknown>;
type SnapshotArg = Parameters<typeof snapshotText>[0];

const text = (value: string): McpContent => ({ type: 'text', text: value });
/** One line of JSON: the model reads the same object as structuredContent, without the indentation or empty fields. */
const compact = (value: Result): McpContent => text(toSafeJson(compactResult(value)));

/** A tool's result (and the snapshot after it, if one was asked for) as MCP content, by the entry's output kind. */
export function mcpResult(tool: ToolName, params: Readonly<Record<string, unknown>>, result: Result, after: AfterSnapshot | undefined, words: WordsContext): McpCallResult {
  switch (TOOLS[tool].cli?.output) {
    case 'snapshot':
      return { content: [text(snapshotText(result as unknown as SnapshotArg, { diff: params.diff === true }))], structuredContent: result };
    case 'image': {
      // The image travels as an image block, not twice as base64 text.
      const { data, ...rest } = result as { data: string; format: string };
      return { content: [{ type: 'image', data, mimeType: rest.format === 'jpeg' ? 'image/jpeg' : 'image/png' }, compact(rest)], structuredContent: rest };
    }
    case 'frames': {
      // Frames are many images: a summary, and the last frame to look at.
      const frames = (result.frames as { data: string; timestamp: number }[] | undefined) ?? [];
      const last = frames.at(-1);
      const told = Object.fromEntries(['masked', 'withheld'].filter((key) => result[key] !== undefined).map((key) => [key, result[key]]));
      const summary = { tabId: result.tabId, frames: frames.length, dropped: result.dropped, timestamps: frames.map((f) => f.timestamp), ...told };
      return { content: [compact(summary), ...(last ? [{ type: 'image' as const, data: last.data, mimeType: 'image/jpeg' }] : [])], structuredContent: summary };
    }
    case 'download':
      return actionResult(tool, withDownloadMoved(result), after, words);
    case 'action':
      return actionResult(tool, result, after, words);
    case 'list':
      // The lines' hints name commands (`network body <id>`): in MCP words, as messages are. Page strings are quoted, never touched.
      return { content: [text(mcpWords((listLines(tool, result) ?? [lineText(compactResult(result))]).join('\n'), { ...words, tool }))], structuredContent: result };
    default:
      return { content: [compact(result)], structuredContent: result };
  }
}

function actionResult(tool: ToolName, result: Result, after: AfterSnapshot | undefined, words: WordsContext): McpCallResult {
  if (after === undefined) return { content: [compact(result)], structuredContent: result };
  const outcome = afterOutcome(after, result, tool, 'above');
  switch (outcome.kind) {
    case 'taken':
      return { content: [compact(result), text(snapshotText(outcome.snapshot as unknown as SnapshotArg))], structuredContent: { result, snapshot: outcome.snapshot } };
    case 'skipped': {
      const note = mcpWords(outcome.note, { ...words, tool });
      return { content: [compact(result), text(`(no snapshot: ${note})`)], structuredContent: { result, snapshot: null, snapshotSkipped: note } };
    }
    case 'failed': {
      // The action happened: its result comes along, beside the snapshot's failure.
      const failed = mcpError(outcome.error, 'snapshot', words);
      return { ...failed, content: [compact(result), ...failed.content], structuredContent: { ...failed.structuredContent, result, snapshot: null } };
    }
  }
}

/** A failure as an MCP tool error: the CLI's human line and relayError block, in MCP words. */
export function mcpError(error: unknown, tool: string, words: WordsContext): McpCallResult {
  const data = RelayError.from(error, tool, 'cli').toData();
  const told = { ...data, message: mcpWords(data.message, { ...words, tool: data.tool || tool }) };
  return { isError: true, content: [text(formatErrorForStderr(told).trimEnd())], structuredContent: { relayError: told } };
}

/** A call of a tool this server does not serve: another group's (say how to serve it), internal or unknown. */
export function notServed(name: string, words: WordsContext): McpCallResult {
  const group = isToolName(name) ? TOOLS[name].mcp?.group : undefined;
  const error =
    group === undefined
      ? new RelayError('unsupported_tool', `There is no tool "${name}"; list the tools again (tools/list).`, { tool: name, phase: 'cli', details: { tool: name } })
      : new RelayError('unsupported_tool', `${name} is in the ${group} group, which this server does not serve; the person can start it with \`chrome-relay mcp --caps ${group}\`.`, {
          tool: name,
          phase: 'cli',
          details: { tool: name, group },
        });
  return mcpError(error, name, words);
}
