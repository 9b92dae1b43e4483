/** Element-addressed commands (fill, hover, select, check, scroll, drag, upload). */
import type { Command } from 'commander';

export function registerElementCommands(_program: Command): void {}
