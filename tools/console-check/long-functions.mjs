// The console's functions over 60 lines, found by TypeScript's parser, held to the list in
// docs/architecture.md ("Where it is still long"): a function over 60 lines that the list does
// not name fails, and so does a line of the list whose function is no longer that long (so that
// the list only shrinks, and stays true). `make check-console` runs it.
//
//   node tools/console-check/long-functions.mjs [JS_FOLDER] [LIST_FILE]

import {readFileSync, readdirSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const ts = createRequire(import.meta.url)('typescript');
const LONGEST = 60;
const folder = process.argv[2] || join(here, '../../api/static/console/js');
const listFile = process.argv[3] || join(here, '../../docs/architecture.md');

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

/** The list's rows: `file name` of "| `file` `name` | lines |". */
function listed(text) {
  const section = text.split('### Where it is still long')[1] || '';
  return new Set([...section.matchAll(/^\| `([\w.-]+\.js)` `([\w$]+)` \| \d+ \|$/gm)].map((m) => `${m[1]} ${m[2]}`));
}

const long = new Map();
for (const file of readdirSync(folder).filter((f) => f.endsWith('.js')).sort()) {
  for (const [key, lines] of longFunctions(file, readFileSync(join(folder, file), 'utf8'))) long.set(key, lines);
}
const allowed = listed(readFileSync(listFile, 'utf8'));
const unlisted = [...long].filter(([key]) => !allowed.has(key)).map(([key, lines]) => `${key} (${lines} lines)`);
const shorter = [...allowed].filter((key) => !long.has(key));
if (unlisted.length) console.error(`over ${LONGEST} lines, not in ${listFile}'s list:\n  ${unlisted.join('\n  ')}`);
if (shorter.length) console.error(`in ${listFile}'s list, no longer over ${LONGEST} lines:\n  ${shorter.join('\n  ')}`);
if (unlisted.length || shorter.length) process.exit(1);
console.log(`${long.size} functions over ${LONGEST} lines, each in the list`);
