// Compiles the pocket bundle's Python to bytecode with the bundle's own interpreter (Pyodide
// under Node.js), so that the bytecode fits its version of CPython: each `x.py` of the folders
// named gets its `x.pyc` beside it (the layout that imports a module with no source).
// Usage: node compile.mjs RUNTIME_DIR FOLDER...
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const [runtime, ...folders] = process.argv.slice(2);
const {loadPyodide} = await import(pathToFileURL(path.join(runtime, 'pyodide.mjs')).href);
const pyodide = await loadPyodide({indexURL: runtime + path.sep});
folders.forEach((folder, i) => {
  const at = `/compile/${i}`;
  pyodide.FS.mkdirTree(at);
  pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, {root: path.resolve(folder)}, at);
});
pyodide.globals.set('count', folders.length);
const failed = pyodide.runPython(`
import compileall
import py_compile
# legacy: x.pyc beside x.py, not in __pycache__; the zip keeps only the .pyc files. Unchecked
# hash: the bytecode names no source's time (there is no source to check), so the same sources
# give the same bytes at each build.
not all(
    compileall.compile_dir(
        f"/compile/{i}",
        quiet=1,
        legacy=True,
        invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH,
    )
    for i in range(count)
)
`);
if (failed) {
  console.error('compile.mjs: some files did not compile');
  process.exit(1);
}
