// An esbuild plugin that makes every function of the extension's source record, when it is called, the file it lives
// in (`globalThis.__walker.files`, while `__walker.on`): the walk scripts/figures/clickWalk.ts traces. Tests, the
// fakes they share and declarations are left as they are (floors.mjs `exempt`): the walk is the program's.
import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import ts from 'typescript';

/** The statement every instrumented function starts with. */
function enter(factory, file) {
  const walker = factory.createPropertyAccessExpression(factory.createIdentifier('globalThis'), '__walker');
  const on = factory.createPropertyAccessExpression(walker, 'on');
  const push = factory.createCallExpression(factory.createPropertyAccessExpression(factory.createPropertyAccessExpression(walker, 'files'), 'push'), undefined, [factory.createStringLiteral(file)]);
  return factory.createExpressionStatement(factory.createLogicalAnd(on, push));
}

function instrument(file) {
  return (context) => {
    const { factory } = context;
    const visit = (node) => {
      const next = ts.visitEachChild(node, visit, context);
      if (!ts.isFunctionLike(next) || next.body === undefined) return next;
      const body = next.body;
      const statement = enter(factory, file);
      const block = ts.isBlock(body)
        ? factory.updateBlock(body, [...(ts.isConstructorDeclaration(next) ? [] : [statement]), ...body.statements, ...(ts.isConstructorDeclaration(next) ? [statement] : [])])
        : factory.createBlock([statement, factory.createReturnStatement(body)], true);
      if (ts.isArrowFunction(next)) return factory.updateArrowFunction(next, next.modifiers, next.typeParameters, next.parameters, next.type, next.equalsGreaterThanToken, block);
      if (ts.isFunctionDeclaration(next)) return factory.updateFunctionDeclaration(next, next.modifiers, next.asteriskToken, next.name, next.typeParameters, next.parameters, next.type, block);
      if (ts.isFunctionExpression(next)) return factory.updateFunctionExpression(next, next.modifiers, next.asteriskToken, next.name, next.typeParameters, next.parameters, next.type, block);
      if (ts.isMethodDeclaration(next)) return factory.updateMethodDeclaration(next, next.modifiers, next.asteriskToken, next.name, next.questionToken, next.typeParameters, next.parameters, next.type, block);
      if (ts.isConstructorDeclaration(next)) return factory.updateConstructorDeclaration(next, next.modifiers, next.parameters, block);
      if (ts.isGetAccessorDeclaration(next)) return factory.updateGetAccessorDeclaration(next, next.modifiers, next.name, next.parameters, next.type, block);
      if (ts.isSetAccessorDeclaration(next)) return factory.updateSetAccessorDeclaration(next, next.modifiers, next.name, next.parameters, block);
      return next;
    };
    return (source) => ts.visitNode(source, visit);
  };
}

/** `src`: the extension's src/ folder to instrument; `exempt(relative)`: files to leave alone. */
export function walkPlugin(src, exempt) {
  return {
    name: 'walk',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        const file = relative(src, args.path);
        if (file.startsWith('..') || exempt(file)) return undefined;
        const source = await readFile(args.path, 'utf8');
        const out = ts.transpileModule(source, {
          fileName: args.path,
          compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, verbatimModuleSyntax: false, useDefineForClassFields: true },
          transformers: { before: [instrument(file)] },
        });
        return { contents: out.outputText, loader: 'js' };
      });
    },
  };
}
