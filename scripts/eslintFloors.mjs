// The ESLint rule `floors/imports`: inside packages/extension/src, a room imports only rooms on lower floors
// (packages/extension/floors.mjs holds the plan, the way Playwright's DEPS.list files hold theirs). A folder or a top
// file the plan does not name is an error too, so a new room gets a floor before it gets code.
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exempt, FLOORS, POINTER_PATH, roomOf } from '../packages/extension/floors.mjs';

const src = resolve(dirname(fileURLToPath(import.meta.url)), '../packages/extension/src');

/** @type {import('eslint').Rule.RuleModule} */
const imports = {
  meta: { type: 'problem', docs: { description: 'An extension room imports only rooms on lower floors (packages/extension/floors.mjs).' }, schema: [] },
  create(context) {
    const file = relative(src, context.filename);
    if (file.startsWith('..') || exempt(file)) return {};
    const room = roomOf(file);
    const floor = FLOORS[room];
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = relative(src, resolve(dirname(context.filename), source));
      if (target.startsWith('..')) return;
      const to = roomOf(target);
      if (to === room) return;
      if (floor === undefined) return context.report({ node, message: `${room} is not in the floor plan: give it a floor in packages/extension/floors.mjs.` });
      const toFloor = FLOORS[to];
      if (toFloor === undefined) return context.report({ node, message: `${to} is not in the floor plan: give it a floor in packages/extension/floors.mjs.` });
      if (room === 'injected' || toFloor >= floor) {
        context.report({ node, message: `${room} (floor ${floor}) may not import ${to} (floor ${toFloor}): a room imports only lower floors (packages/extension/floors.mjs). Move what both need down, or pass it in from the composition root.` });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

/** @type {import('eslint').Rule.RuleModule} */
const pointerPath = {
  meta: { type: 'problem', docs: { description: 'Only the one pointer-action path imports its inner files (packages/extension/floors.mjs POINTER_PATH).' }, schema: [] },
  create(context) {
    const file = relative(src, context.filename);
    if (file.startsWith('..') || exempt(file) || POINTER_PATH.files.includes(file)) return {};
    const check = (node, source) => {
      if (typeof source !== 'string' || !source.startsWith('.')) return;
      const target = relative(src, resolve(dirname(context.filename), source)).replace(/\.js$/, '.ts');
      if (target !== POINTER_PATH.entry && POINTER_PATH.files.includes(target)) {
        context.report({ node, message: `${target} belongs to the one pointer-action path: go through ${POINTER_PATH.entry} (pointerAction), which aims, verifies and disarms.` });
      }
    };
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export const floorsPlugin = { rules: { imports, 'pointer-path': pointerPath } };
