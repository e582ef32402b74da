// No function of the console over 60 lines (found by TypeScript's parser, counted from its
// start to its end, an inner anonymous one as part of the named function it is in), as no
// function of ledger/, api/, schemas/ or tablebank/ is (tests/test_function_length.py).
// `make check-console` runs it; it names each one it finds and fails.
//
//   node tools/console-check/long-functions.mjs [JS_FOLDER]

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
function longFunctions(file, text) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
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

const long = new Map();
for (const file of readdirSync(folder).filter((f) => f.endsWith('.js')).sort()) {
  for (const [key, lines] of longFunctions(file, readFileSync(join(folder, file), 'utf8'))) long.set(key, lines);
}
if (long.size) {
  const found = [...long].map(([key, lines]) => `${key} (${lines} lines)`);
  console.error(`over ${LONGEST} lines, in ${folder}:\n  ${found.join('\n  ')}`);
  process.exit(1);
}
console.log(`no function over ${LONGEST} lines`);
