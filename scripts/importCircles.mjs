#!/usr/bin/env node
// Import circles: files that import one another, directly or round a loop, anywhere in the repository's code
// (packages/*/src, e2e/, scripts/); and areas that do (each package, e2e/, scripts/): an area whose files import
// another area whose files import it back, so neither can be read, built or tested as the layer it is meant to be
// (e2e/ builds on the packages, scripts/ on both). Type-only imports count too: a circle of types is still two files
// that cannot be read, moved or tested one without the other, and it is where a circle of values starts.
//
//   node scripts/importCircles.mjs          fails (exit 1) when there is one, naming each circle
//   node scripts/importCircles.mjs --count  prints the figure only (scripts/floorFigures.mjs, the closing notes)
//
// Each circle is one strongly connected component of the import graph (Tarjan), printed as one loop through it. The
// imports are read by TypeScript's own pre-processor (static imports, re-exports, `import()` and `require` of a
// literal), so a specifier in a comment or a string is not an import. Run by `pnpm lint` and `node scripts/checks.mjs`.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE = /\.(ts|tsx|mts|mjs|js)$/;
/** The workspace packages under `at`, as their manifests' `main` names them. */
function packagesOf(at) {
  return new Map(
    readdirSync(join(at, 'packages')).flatMap((name) => {
      const manifest = join(at, 'packages', name, 'package.json');
      if (!existsSync(manifest)) return [];
      const { name: id, main } = JSON.parse(readFileSync(manifest, 'utf8'));
      return typeof id === 'string' ? [[id, { dir: join(at, 'packages', name), main: typeof main === 'string' ? main : 'src/index.ts' }]] : [];
    }),
  );
}

function walk(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) return [];
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : SOURCE.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The file a specifier names, if it is one of ours (relative, or a workspace package); undefined for anything else. */
function resolveImport(packages, from, specifier) {
  let base;
  if (specifier.startsWith('.')) base = resolve(dirname(from), specifier);
  else {
    const id = [...packages.keys()].find((name) => specifier === name || specifier.startsWith(`${name}/`));
    if (id === undefined) return undefined;
    const pkg = packages.get(id);
    base = specifier === id ? join(pkg.dir, pkg.main) : join(pkg.dir, specifier.slice(id.length + 1));
  }
  const stem = base.replace(/\.(js|mjs|ts)$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.tsx`, `${stem}.mts`, `${stem}.mjs`, `${stem}.js`, join(base, 'index.ts'), join(base, 'index.mjs')];
  return candidates.find((path) => SOURCE.test(path) && existsSync(path) && statSync(path).isFile());
}

/** Every file of ours each file imports, in the repository at `at` (this one by default). */
export function importGraph(at = root) {
  const packages = packagesOf(at);
  const files = [...walk(join(at, 'packages')).filter((path) => relative(at, path).split('/')[2] === 'src'), ...walk(join(at, 'e2e')), ...walk(join(at, 'scripts'))];
  const graph = new Map();
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = new Set();
    for (const { fileName } of importedFiles) {
      const target = resolveImport(packages, file, fileName);
      if (target !== undefined) targets.add(relative(at, target));
    }
    graph.set(relative(at, file), [...targets].sort());
  }
  return graph;
}

/** Pure: the strongly connected components of more than one file, or of a file that imports itself (Tarjan). */
export function circlesOf(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (start) => {
    // Iterative, so a long chain of imports cannot overflow the stack.
    const frames = [{ node: start, edges: graph.get(start) ?? [], at: 0 }];
    index.set(start, next);
    low.set(start, next++);
    stack.push(start);
    onStack.add(start);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      if (frame.at < frame.edges.length) {
        const to = frame.edges[frame.at++];
        if (!graph.has(to)) continue;
        if (!index.has(to)) {
          index.set(to, next);
          low.set(to, next++);
          stack.push(to);
          onStack.add(to);
          frames.push({ node: to, edges: graph.get(to) ?? [], at: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node), index.get(to)));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node), low.get(frame.node)));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component = [];
      for (let node = stack.pop(); ; node = stack.pop()) {
        onStack.delete(node);
        component.push(node);
        if (node === frame.node) break;
      }
      if (component.length > 1 || (graph.get(frame.node) ?? []).includes(frame.node)) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => (a[0] < b[0] ? -1 : 1));
}

/** The area a file belongs to: `packages/<name>`, `e2e` or `scripts`. */
export function areaOf(file) {
  const [top, name] = file.split('/');
  return top === 'packages' ? `${top}/${name}` : top;
}

/** Pure: the graph of areas (an edge where some file of one imports some file of another), with one such import per edge. */
export function areaGraph(graph) {
  const areas = new Map();
  const witness = new Map();
  for (const [file, targets] of graph) {
    const from = areaOf(file);
    if (!areas.has(from)) areas.set(from, new Set());
    for (const target of targets) {
      const to = areaOf(target);
      if (to === from) continue;
      areas.get(from).add(to);
      if (!witness.has(`${from} ${to}`)) witness.set(`${from} ${to}`, `${file} → ${target}`);
    }
  }
  return { graph: new Map([...areas].map(([area, targets]) => [area, [...targets].sort()])), witness };
}

/** One loop through a component, for the report: a → b → … → a. */
function loopThrough(graph, component) {
  const members = new Set(component);
  const start = component[0];
  const path = [start];
  const seen = new Set([start]);
  // Depth-first within the component until an edge leads back to the start.
  const search = (node) => {
    for (const to of graph.get(node) ?? []) {
      if (to === start) return true;
      if (!members.has(to) || seen.has(to)) continue;
      seen.add(to);
      path.push(to);
      if (search(to)) return true;
      path.pop();
    }
    return false;
  };
  search(start);
  return [...path, start].join(' → ');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const graph = importGraph();
  const circles = circlesOf(graph);
  const areas = areaGraph(graph);
  const areaCircles = circlesOf(areas.graph);
  if (process.argv.includes('--count')) console.log(circles.length + areaCircles.length);
  else if (circles.length + areaCircles.length === 0) console.error(`import circles: none (${graph.size} files, ${areas.graph.size} areas)`);
  else {
    console.error(`import circles: ${circles.length} between files, ${areaCircles.length} between areas (type-only imports count too); break each one:`);
    for (const component of circles) console.error(`  ${loopThrough(graph, component)}${component.length > 2 ? ` (${component.length} files in all)` : ''}`);
    for (const component of areaCircles) {
      const loop = loopThrough(areas.graph, component).split(' → ');
      const steps = loop.slice(1).map((to, i) => areas.witness.get(`${loop[i]} ${to}`));
      console.error(`  ${loop.join(' → ')}: ${steps.join('; ')}${component.length > 2 ? ` (${component.length} areas in all: ${component.join(', ')})` : ''}`);
    }
    process.exitCode = 1;
  }
}
