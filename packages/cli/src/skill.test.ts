import { describe, expect, it } from 'vitest';
import { ERROR_CODES, ERROR_TABLE, isReasonedCode, NOTICE_CODES, REASONED_CODES, reasonInfo, reasonRetryable, reasonsOf, TOOL_NAMES, TOOLS, VERSION } from '@chrome-relay/protocol';
import { renderSkill } from './skill.js';

describe('skill', () => {
  const skill = renderSkill();

  it('is a SKILL.md with front matter, stamped with the binary version', () => {
    expect(skill.startsWith('---\nname: chrome-relay\ndescription: ')).toBe(true);
    expect(skill).toContain(`# chrome-relay ${VERSION} — agent playbook`);
    expect(renderSkill('9.9.9')).toContain('# chrome-relay 9.9.9');
  });

  it('teaches the snapshot → act loop', () => {
    expect(skill).toContain('chrome-relay snapshot --tab <tabId>');
    expect(skill).toContain('chrome-relay click @e12');
  });

  it('has exactly one rule per error code, taken from the error table', () => {
    for (const code of ERROR_CODES) {
      const lines = skill.split('\n').filter((l) => l.startsWith(`- \`${code}\``));
      const rule = isReasonedCode(code)
        ? `- \`${code}\`: branch on \`details.reason\`:`
        : `- \`${code}\` (${ERROR_TABLE[code].retryable ? 'retryable' : 'not retryable'}): ${ERROR_TABLE[code].move}`;
      expect(lines, code).toEqual([rule]);
    }
    for (const notice of NOTICE_CODES) expect(skill).toContain(`- \`${notice}\`: `);
  });

  it('leads a code that has reasons with its reasons, each with its move and retryable, then the code\'s own move', () => {
    const lines = skill.split('\n');
    for (const code of REASONED_CODES) {
      const at = lines.findIndex((l) => l === `- \`${code}\`: branch on \`details.reason\`:`);
      const subRules = lines.slice(at + 1).filter((_, i, rest) => rest.slice(0, i + 1).every((l) => l.startsWith('  - ')));
      expect(subRules, code).toEqual([
        ...reasonsOf(code).map((reason) => `  - \`${reason}\` (${reasonRetryable(code, reason) ? 'retryable' : 'not retryable'}): ${reasonInfo(code, reason).move}`),
        `  - any other reason: ${ERROR_TABLE[code].move}`,
      ]);
    }
  });

  it('lists every command of the registry by its real syntax with one example, and no wire name as a command', () => {
    for (const name of TOOL_NAMES) {
      const cli = TOOLS[name].cli;
      if (cli === undefined) {
        expect(skill, name).not.toContain(`chrome-relay ${name}`);
        continue;
      }
      const line = skill.split('\n').find((l) => l.startsWith(`- \`chrome-relay ${cli.command}`) && l.includes(` Example: \`${cli.examples[0]}\``));
      expect(line, name).toBeDefined();
      // group_create, record_start, network_har…: wire names, not commands.
      if (name.includes('_')) expect(skill, name).not.toContain(`chrome-relay ${name}`);
    }
    expect(skill).toContain('`chrome-relay reconnect`');
  });
});
