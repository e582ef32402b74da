// The console's functions, found by TypeScript's parser, held to two rules; `make check-console`
// runs it, and it names each function that breaks one and fails.
//
// - None over 60 lines (counted from its start to its end, an inner anonymous one as part of
//   the named function it is in), as no function of ledger/, api/, schemas/ or tablebank/ is
//   (tests/test_function_length.py).
// - Each named function declaration, class and class method (an object literal's method too)
//   says what it is for in its JSDoc: a `/** ... */` directly before it with a description, not
//   only tags (`@param` alone is not one). Named `file:line name`.
//
//   node tools/console-check/functions.mjs [JS_FOLDER]

import {readFileSync, readdirSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ts = createRequire(import.meta.url)('typescript');
const LONGEST = 60;
const folder = process.argv[2] || join(here, '../../api/static/console/js');

/** Each function of a file over LONGEST lines: `file name`, an inner anonymous one by the
 * named function it is in. */
function longFunctions(file, source) {
  const found = new Map();
  const visit = (node, enclosing) => {
    let name = enclosing;
    if (ts.isFunctionLike(node) && node.body) {
      const own = node.name ? node.name.getText(source)
        : node.parent && ts.isVariableDeclaration(node.parent) ? node.parent.name.getText(source) : null;
      name = own || enclosing || '(anonymous)';
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.end).line;
      const lines = end - start + 1;
      if (lines > LONGEST && !found.has(`${file} ${name}`)) found.set(`${file} ${name}`, lines);
    }
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(source, null);
  return found;
}

/** Each named function declaration, class and method of a file whose JSDoc says nothing of what
 * it is for (none, or tags alone): `file:line name`. */
function undocumented(file, source) {
  const found = [];
  const visit = (node) => {
    const counted = ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name)
      || ts.isClassDeclaration(node);
    if (counted && !(node.jsDoc || []).some((doc) => doc.comment)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      found.push(`${file}:${line} ${node.name ? node.name.getText(source) : '(anonymous class)'}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const long = new Map();
const unsaid = [];
for (const file of readdirSync(folder).filter((f) => f.endsWith('.js')).sort()) {
  const text = readFileSync(join(folder, file), 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  for (const [key, lines] of longFunctions(file, source)) long.set(key, lines);
  unsaid.push(...undocumented(file, source));
}
if (long.size) {
  const found = [...long].map(([key, lines]) => `${key} (${lines} lines)`);
  console.error(`over ${LONGEST} lines, in ${folder}:\n  ${found.join('\n  ')}`);
}
if (unsaid.length) {
  console.error(`no JSDoc saying what it is for, in ${folder}:\n  ${unsaid.join('\n  ')}`);
}
if (long.size || unsaid.length) process.exit(1);
console.log(`no function over ${LONGEST} lines, each said in its JSDoc`);
