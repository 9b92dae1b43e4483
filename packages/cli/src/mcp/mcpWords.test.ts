import { describe, expect, it } from 'vitest';
import { CHECK_BEFORE_REISSUING, ERROR_CODES, ERROR_TABLE, parseCaps, REASONED_CODES, reasonInfo, reasonsOf, TOOLS, type ToolName } from '@chrome-relay/protocol';
import { servedBy } from './mcpTools.js';
import { mcpWords } from './mcpWords.js';

const core = { served: servedBy(parseCaps(undefined)).tools };
const all = { served: servedBy(parseCaps('all')).tools };

describe('mcpWords', () => {
  it('turns a command line of a served tool into the call, with its arguments read off the command shape', () => {
    expect(mcpWords('Tab 9 was closed; run `chrome-relay tabs` to list live tabs.', core)).toBe('Tab 9 was closed; call `tabs` to list live tabs.');
    expect(mcpWords('Run `chrome-relay snapshot --tab 12` and retry.', core)).toBe('Call `snapshot {"tab": 12}` and retry.');
    expect(mcpWords('Answer it with `chrome-relay dialog accept|dismiss`.', core)).toBe('Answer it with `dialog {"action": "accept"|"dismiss"}`.');
    expect(mcpWords('focus it: `chrome-relay type -s @e7 "hi there"`', core)).toBe('focus it: `type {"ref": "e7", "text": "hi there"}`');
    expect(mcpWords('open one with `chrome-relay navigate <url>`', core)).toBe('open one with `navigate {"url": <url>}`');
    expect(mcpWords('`chrome-relay wait --load`, `chrome-relay --tab 5 close`', core)).toBe('`wait {"load": true}`, `close {"tab": 5}`');
    expect(mcpWords('`chrome-relay click @e12 --snapshot -i`', core)).toBe('`click {"ref": "e12", "snapshot": true}`');
  });

  it('a tool named by its command words (as messages name the tool they are about) is its tool name', () => {
    expect(mcpWords('`record stop` did not finish: the native host was stopped by a signal.', all)).toBe('`record_stop` did not finish: the native host was stopped by a signal.');
    expect(mcpWords('while `group create` was running', all)).toBe('while `group_create` was running');
    // click_intercepted's way to see the covering element.
    expect(mcpWords('Dismiss or close it (`chrome-relay snapshot -s @e42` shows it and what closes it)', core)).toBe('Dismiss or close it (`snapshot {"scopeRef": "e42"}` shows it and what closes it)');
    expect(mcpWords('`click` may already have taken effect', core)).toBe('`click` may already have taken effect');
    // Not served here: no call of this server, so the words stay.
    expect(mcpWords('`record stop` did not finish', core)).toBe('`record stop` did not finish');
  });

  it('bare flags become the params they fill, refs lose their @, a command-line aside goes', () => {
    expect(mcpWords('Run `chrome-relay tabs` and pass --tab <id>.', core)).toBe('Call `tabs` and pass `tab` <id>.');
    expect(mcpWords('retry with a larger --timeout', { ...core, tool: 'wait' })).toBe('retry with a larger `timeoutMs`');
    expect(mcpWords('give a ref (e.g. @e12 from `chrome-relay snapshot`)', core)).toBe('give a ref (e.g. e12 from `snapshot`)');
    expect(mcpWords('ref: must be a ref like e12 (written @e12 on the command line).', core)).toBe('ref: must be a ref like e12.');
    expect(mcpWords('add --allow-partial', { ...all, tool: 'group_create' })).toBe('add `allowPartial`');
  });

  it('leaves alone what is no call of this server: shell-only commands, groups not served, unknown flags, and quoted text', () => {
    for (const text of [
      'Run `chrome-relay doctor`.',
      'release it with `chrome-relay lease release --tab 5`',
      'run `chrome-relay snapshot --bogus` first',
      'pass --profile <user-data-dir>',
      'No element matches "`chrome-relay tabs` @e5 --tab".',
    ]) {
      expect(mcpWords(text, core)).toBe(text);
    }
    expect(mcpWords('release it with `chrome-relay lease release --tab 5`', all)).toBe('release it with `lease_release {"tab": 5}`');
    // A flag the command does not have (no agent frees another's lease): left as written.
    expect(mcpWords('`chrome-relay lease release --tab 5 --force`', all)).toBe('`chrome-relay lease release --tab 5 --force`');
  });

  it('no move of the error table, the reasons or the interrupted note names a served tool as a command line', () => {
    const moves = [...ERROR_CODES.map((code) => ERROR_TABLE[code].move), ...REASONED_CODES.flatMap((code) => reasonsOf(code).map((reason) => reasonInfo(code, reason).move)), CHECK_BEFORE_REISSUING];
    const commands = (Object.keys(TOOLS) as ToolName[]).filter((name) => all.served.has(name)).map((name) => `\`chrome-relay ${TOOLS[name].cli?.command ?? name}`);
    for (const move of moves) {
      const told = mcpWords(move, all);
      for (const command of commands) expect(told, move).not.toContain(command);
      expect(told).not.toMatch(/(^|\W)@e\d/);
    }
  });
});
