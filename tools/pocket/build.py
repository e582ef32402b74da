"""``make pocket``: the pocket bundle, ``dist/pocket/``, a folder of static files that runs the
whole bank in the banker's browser (docs/pocket.md).

What goes in, each from a pinned source and nothing from a CDN:
- ``pyodide/``: Pyodide's runtime from its npm package (``tools/pocket/package-lock.json``,
  installed with ``npm ci``): the loader, the WebAssembly interpreter, and the standard library
  compiled to bytecode;
- ``python/site.zip``: the Python packages the bank imports (``tools/pocket/requirements.txt``,
  wheels from PyPI checked against their hashes) and ours (``ledger``, ``schemas``, ``api``),
  compiled to bytecode, without their sources;
- ``console/static/``: the console's files, where the server serves them;
- ``index.html`` (the banker's console, in pocket mode), ``manifest.webmanifest``, ``sw.js``
  (a service worker that keeps every file of the bundle: it opens offline after one visit) and
  ``NOTICE`` (what is vendored, under which licence).

The bytecode is compiled by the bundle's own interpreter, under Node.js (``compile.mjs``), so
that it fits its version of CPython whatever Python runs this script.

A bundle is built once per set of inputs: the digest of every file that goes into it names a
copy kept in ``$XDG_CACHE_HOME/tablebank/pocket`` (``~/.cache``), which a later build of the
same inputs copies instead of building again (CI's fresh clones on one machine).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import brotli  # type: ignore[import-not-found]

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "tools" / "pocket"
CONSOLE = ROOT / "api" / "static" / "console"
OUT = ROOT / "dist" / "pocket"
RUNTIME = HERE / "node_modules" / "pyodide"
# The runtime's files the browser loads (the rest of the npm package is types and maps).
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm")
# The time of every entry of the bundle's zips: the earliest a zip can say.
ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
# Our packages, less what only serving imports (api/cli/: gunicorn, rich).
OURS = ("ledger", "schemas", "api")
LEFT_OUT = {Path("api/cli"), Path("api/static")}
# The inputs whose digest names a build.
INPUTS = (
    HERE / "build.py",
    HERE / "compile.mjs",
    HERE / "package-lock.json",
    HERE / "requirements.txt",
    HERE / "sw.js",
    ROOT / "ledger",
    ROOT / "schemas",
    ROOT / "api",
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--no-cache", action="store_true", help="build even if a copy is kept")
    args = parser.parse_args()
    digest = inputs_digest()
    built = args.out / "BUILD"
    if built.is_file() and built.read_text().strip() == digest and not args.no_cache:
        print(f"make pocket: {args.out} is up to date ({digest[:12]})")
        return
    kept = cache_dir() / digest
    if kept.is_dir() and not args.no_cache:
        replace(args.out, lambda into: shutil.copytree(kept, into))
        print(f"make pocket: {args.out} (kept build {digest[:12]})")
        return
    replace(args.out, build)
    (args.out / "BUILD").write_text(digest + "\n")
    kept.parent.mkdir(parents=True, exist_ok=True)
    for old in kept.parent.iterdir():  # one kept build is enough
        shutil.rmtree(old, ignore_errors=True)
    shutil.copytree(args.out, kept)
    print(
        f"make pocket: {args.out} built ({size(args.out) / 1e6:.1f} MB, "
        f"{size(args.out, 'gz') / 1e6:.1f} MB with gzip, {size(args.out, 'br') / 1e6:.1f} MB "
        f"with brotli, {digest[:12]})"
    )


def build(out: Path) -> None:
    node = need("node")
    npm_ci(need("npm"))
    with tempfile.TemporaryDirectory(prefix="tablebank-pocket-") as tmp:
        stage = Path(tmp)
        site = stage / "site"
        notices = unpack_wheels(download_wheels(stage / "wheels"), site)
        for package in OURS:
            copy_sources(ROOT / package, site / package)
        stdlib = stage / "stdlib"
        with zipfile.ZipFile(RUNTIME / "python_stdlib.zip") as archive:
            archive.extractall(stdlib)
        run([node, str(HERE / "compile.mjs"), str(RUNTIME), str(stdlib), str(site)])
        (out / "pyodide").mkdir(parents=True)
        (out / "python").mkdir()
        zip_bytecode(stdlib, out / "pyodide" / "python_stdlib.zip")
        zip_bytecode(site, out / "python" / "site.zip")
    for name in RUNTIME_FILES:
        shutil.copy2(RUNTIME / name, out / "pyodide" / name)
    write_lock(out / "pyodide" / "pyodide-lock.json")
    shutil.copytree(
        CONSOLE, out / "console" / "static", ignore=shutil.ignore_patterns("sw.js", "*.html")
    )
    write_pages(out)
    write_notice(out / "NOTICE", notices)
    write_service_worker(out)
    compress(out)


def inputs_digest() -> str:
    digest = hashlib.sha256()
    for top in INPUTS:
        files = sorted(p for p in top.rglob("*") if p.is_file()) if top.is_dir() else [top]
        for path in files:
            if "__pycache__" in path.parts:
                continue
            digest.update(str(path.relative_to(ROOT)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "tablebank" / "pocket"


def replace(out: Path, make: object) -> None:
    """Make ``out`` anew beside it, then put it in place: a failed build leaves no half."""
    fresh = out.with_name(out.name + ".new")
    shutil.rmtree(fresh, ignore_errors=True)
    make(fresh)  # type: ignore[operator]
    shutil.rmtree(out, ignore_errors=True)
    fresh.rename(out)


def need(tool: str) -> str:
    found = shutil.which(tool)
    if found is None:
        sys.exit(f"make pocket: {tool} is not installed (Debian: apt-get install nodejs npm)")
    return found


def run(args: list[str], cwd: Path | None = None) -> None:
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"make pocket: {' '.join(args[:3])} failed:\n{done.stdout}{done.stderr}")


def npm_ci(npm: str) -> None:
    """The pinned runtime in tools/pocket/node_modules, unless it is there as locked."""
    installed = HERE / "node_modules" / ".package-lock.json"
    if installed.exists():
        want = json.loads((HERE / "package-lock.json").read_text())["packages"]
        have = json.loads(installed.read_text())["packages"]
        if all(
            have.get(name, {}).get("version") == entry.get("version")
            for name, entry in want.items()
            if name
        ):
            return
    run([npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=HERE)


def download_wheels(into: Path) -> list[Path]:
    """The pinned wheels, checked against their hashes (pip's own cache serves a repeat)."""
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--quiet",
            "--no-deps",
            "--only-binary=:all:",
            "--require-hashes",
            # Any wheel will do: only the Python files are kept (MarkupSafe's has a C half).
            *("--platform", "manylinux_2_17_x86_64", "--platform", "any"),
            *("--python-version", "3.11", "--implementation", "cp"),
            *("--abi", "cp311", "--abi", "none"),
            "-d",
            str(into),
            "-r",
            str(HERE / "requirements.txt"),
        ]
    )
    return sorted(into.glob("*.whl"))


def unpack_wheels(wheels: list[Path], site: Path) -> list[str]:
    """Each wheel's Python files and metadata into ``site``; its licence texts, for NOTICE."""
    notices = []
    for wheel in wheels:
        name, version = wheel.name.split("-")[:2]
        with zipfile.ZipFile(wheel) as archive:
            licences = []
            for member in archive.namelist():
                path = Path(member)
                if ".dist-info" in path.parts[0]:
                    if "licenses" in path.parts or path.name.upper().startswith("LICEN"):
                        licences.append(archive.read(member).decode("utf-8", "replace"))
                    elif path.name == "METADATA":  # importlib.metadata.version() reads it
                        archive.extract(member, site)
                elif path.suffix == ".py" or (path.suffix == ".json" and path.parent.name):
                    archive.extract(member, site)
        notices.append(f"{name} {version} (PyPI)\n\n" + "\n".join(licences))
    return notices


def copy_sources(package: Path, into: Path) -> None:
    """Our package's Python files and data (the rule sets), less what serving alone needs."""
    for path in sorted(package.rglob("*")):
        relative = path.relative_to(ROOT)
        if any(relative == left or left in relative.parents for left in LEFT_OUT):
            continue
        if "__pycache__" in path.parts or not path.is_file():
            continue
        if path.suffix in (".py", ".json"):
            target = into / path.relative_to(package)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def zip_bytecode(folder: Path, archive: Path) -> None:
    """Every file of ``folder`` but the Python sources (compile.mjs left their bytecode beside
    them), stored uncompressed: the server or the host compresses the whole file better. The
    entries carry no time of their own: the same files make the same zip at each build."""
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_STORED) as out:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and path.suffix != ".py":
                entry = zipfile.ZipInfo(path.relative_to(folder).as_posix(), ZIP_EPOCH)
                entry.external_attr = 0o644 << 16
                out.writestr(entry, path.read_bytes())


def write_lock(path: Path) -> None:
    """The runtime's lock file with no packages: the bank loads none of Pyodide's own, so the
    loader never asks for one (its addresses are a CDN's)."""
    lock = json.loads((RUNTIME / "pyodide-lock.json").read_text())
    lock["packages"] = {}
    path.write_text(json.dumps(lock, separators=(",", ":")))


def write_pages(out: Path) -> None:
    """index.html: the banker's page, its addresses made relative to the bundle, in pocket
    mode; the web app manifest likewise."""
    page = (CONSOLE / "banker.html").read_text()
    page = page.replace('href="/manifest.webmanifest"', 'href="manifest.webmanifest"')
    page = page.replace('"/console/static/', '"console/static/')
    banker = '<script type="module" src="console/static/js/banker.js"></script>'
    assert banker in page, "banker.html no longer loads its banker.js as expected"
    pocket = '<script type="module" src="console/static/js/pocket.js"></script>'
    page = page.replace(banker, f"{pocket}\n{banker}")
    (out / "index.html").write_text(page)
    manifest = json.loads((CONSOLE / "manifest.webmanifest").read_text())
    manifest["start_url"] = "./"
    manifest["scope"] = "./"
    for icon in manifest.get("icons", []):
        icon["src"] = icon["src"].lstrip("/")
    (out / "manifest.webmanifest").write_text(json.dumps(manifest, indent=2, ensure_ascii=False))


def write_notice(path: Path, wheels: list[str]) -> None:
    lock = json.loads((HERE / "package-lock.json").read_text())["packages"]
    pyodide = lock["node_modules/pyodide"]
    parts = [
        "The pocket bundle of tablebank (MIT, see LICENSE in its repository) holds these "
        "packages of others, each under its own licence:",
        f"pyodide {pyodide['version']} (npm), {pyodide['license']}: the loader and "
        "WebAssembly build of CPython, whose standard library and interpreter are under the "
        "Python Software Foundation License (PSF-2.0).",
        *wheels,
    ]
    path.write_text("\n\n----\n\n".join(parts) + "\n")


def write_service_worker(out: Path) -> None:
    """sw.js: the bundle's files, each with its SHA-256, kept under a name that changes with
    any of them."""
    files = sorted(
        p.relative_to(out).as_posix()
        for p in out.rglob("*")
        if p.is_file() and p.name not in ("sw.js", "BUILD") and p.suffix not in PACKED
    )
    digest = hashlib.sha256()
    listed = []
    for name in files:
        data = (out / name).read_bytes()
        digest.update(name.encode() + b"\0" + data)
        listed.append([name, hashlib.sha256(data).hexdigest()])
    listed.insert(0, ["./", next(d for name, d in listed if name == "index.html")])
    script = (HERE / "sw.js").read_text()
    script = script.replace("/* VERSION */", json.dumps(digest.hexdigest()[:16]))
    script = script.replace("/* FILES */", ",\n  ".join(json.dumps(f) for f in listed))
    (out / "sw.js").write_text(script)


# The compressed copies beside a file (``x.wasm.gz``, ``x.wasm.br``), by encoding.
PACKED = (".gz", ".br")


def compress(out: Path) -> None:
    """Beside each file that gains from it, a gzip copy and a brotli one (``x.wasm.gz``,
    ``x.wasm.br``), which a server may send to a browser that accepts them
    (api/pocket_files.py, Caddy's ``precompressed``, nginx's ``gzip_static``); the service
    worker asks for the files by their own names and never sees these. Brotli at its best
    takes about a minute for the bundle's big files, so each file's copy is kept by the
    digest of its bytes (``brotli_copies``) and made again only when the file changed (our
    packages' zip, at most, after a change of our code)."""
    files = sorted(
        (p for p in out.rglob("*") if p.is_file() and p.stat().st_size >= 1024),
        key=lambda p: -p.stat().st_size,
    )
    for path, packed in zip(files, brotli_copies(files), strict=True):
        data = path.read_bytes()
        for suffix, copy in (".gz", gzip.compress(data, compresslevel=9, mtime=0)), (".br", packed):
            if len(copy) < 0.9 * len(data):
                path.with_name(path.name + suffix).write_bytes(copy)


def brotli_copies(files: list[Path]) -> list[bytes]:
    """Each file at brotli's best (quality 11, a 16 MB window), from the copies kept in the
    cache (``pocket-brotli/``, by the digest of the file) or made now, in parallel. A copy
    unused for a week is dropped (two checkouts building by turns keep theirs)."""
    kept = cache_dir().with_name("pocket-brotli")
    kept.mkdir(parents=True, exist_ok=True)
    names = [kept / f"{hashlib.sha256(p.read_bytes()).hexdigest()}.br" for p in files]
    packed: dict[Path, bytes] = {}
    for name in names:
        with contextlib.suppress(FileNotFoundError):
            packed[name] = name.read_bytes()
            os.utime(name)
    missing = [(p, name) for p, name in zip(files, names, strict=True) if name not in packed]
    with concurrent.futures.ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        made = pool.map(brotli_best, [p for p, _ in missing])
        for (_, name), copy in zip(missing, made, strict=True):
            packed[name] = copy
            fresh = name.with_name(f"{name.name}.{os.getpid()}")
            fresh.write_bytes(copy)
            fresh.replace(name)
    for old in kept.iterdir():
        with contextlib.suppress(FileNotFoundError):
            if time.time() - old.stat().st_mtime > 7 * 24 * 3600:
                old.unlink()
    return [packed[name] for name in names]


def brotli_best(path: Path) -> bytes:
    return bytes(brotli.compress(path.read_bytes(), quality=11, lgwin=24))


def size(folder: Path, packed: str = "") -> int:
    """The bytes of the bundle's files, or of what a server sends with the build's copies
    (``packed``: "gz" or "br"; a file with no such copy goes as it is)."""
    total = 0
    for path in folder.rglob("*"):
        if not path.is_file() or path.suffix in PACKED:
            continue
        copy = path.with_name(f"{path.name}.{packed}")
        total += (copy if packed and copy.exists() else path).stat().st_size
    return total


if __name__ == "__main__":
    main()
