/** The README's marked blocks (`<!-- readme-test: NAME -->` before a fence) and their shell lines: what readme.e2e.ts and remote.e2e.ts run. */

/** The fenced blocks after each `<!-- readme-test: NAME -->` marker, by name, in order. */
export function markedBlocks(markdown: string): Map<string, { lang: string; text: string }[]> {
  const blocks = new Map<string, { lang: string; text: string }[]>();
  for (const match of markdown.matchAll(/<!-- readme-test: ([a-z-]+) -->\n```(\w*)\n([\s\S]*?)\n```/g)) {
    const [, name = '', lang = '', text = ''] = match;
    blocks.set(name, [...(blocks.get(name) ?? []), { lang, text }]);
  }
  return blocks;
}

export interface Step {
  command: string;
  /** `#   ` lines under it: what it prints. */
  shows: string[];
}

/** Shell lines of a block (comments after a command stay: sh ignores them), with the output lines shown under each. */
export function steps(text: string): Step[] {
  const out: Step[] = [];
  for (const line of text.split('\n')) {
    const shown = /^#\s{3}(.*)$/.exec(line);
    if (shown?.[1] !== undefined) out.at(-1)?.shows.push(shown[1].trim());
    else if (line.trim() !== '' && !line.trim().startsWith('#')) out.push({ command: line, shows: [] });
  }
  return out;
}

