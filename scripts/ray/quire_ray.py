#!/usr/bin/env python3
"""quire_ray: `quire batch` spread over a Ray cluster, one task per book.

Usage:
    python3 scripts/ray/quire_ray.py BOOK...|DIR|LIST -o OUT [--address ADDR | --local-workers N]
        [--quire PATH] [--retries N] [--force] [--summary FILE] [-- RENDER OPTIONS...]

OUT is a folder every worker can write (a shared file system: NFS, EFS, a PVC in KubeRay)
or an object-storage URI handled by an `ObjectStoreWriter` (see `writer_for`). Each book is
rendered by `quire render BOOK -o DIR RENDER OPTIONS --threads C` in a Ray task that asks for
C CPUs (`--cpus-per-book`, default 1), on whichever node has them; the book's folder gets the
same `batch-stamp.json` as `quire batch` writes, so a run resumes where an earlier one (or a
local `quire batch` into the same folder) stopped. OUT/summary.json is `quire-batch/1`, the
format `quire batch` writes: per book input, output, status (converted/skipped/failed),
exitCode, pages, seconds, warnings, error.

Failures: a book whose `quire render` fails (damaged book: exit 65, …) is reported as failed
and never retried (it would fail again); a task whose worker process or node dies is retried
by Ray up to `--retries` times (`max_retries`), then reported failed with exit 70. One bad
book never stops the run.

The plan (which books, which folder names) mirrors `quire batch` (Sources/Quire/Batch/
BatchPlan.swift): book files by extension and unpacked EPUB folders, found recursively in
sorted order, `.list` files one path per line, names from the file stem reduced to safe
characters, "-2", "-3"… on case-insensitive collisions.

Fault injection for tests: with QUIRE_RAY_KILL_ONCE=NAME in the environment, the first
attempt at book NAME kills its own worker process (after leaving a marker in OUT/.quire-ray/)
so that the retry path is exercised.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import unicodedata

BOOK_EXTENSIONS = {"epub", "xhtml", "html", "htm", "txt", "text"}
MAX_BOOKS = 100_000
MAX_DEPTH = 16
MAX_ENTRIES = 1_000_000
MAX_NAME = 100
STAMP_NAME = "batch-stamp.json"
SUMMARY_NAME = "summary.json"


# --- the plan (mirrors BatchPlan.swift) ---------------------------------------------------


def is_unpacked_epub(path: str) -> bool:
    return os.path.isfile(os.path.join(path, "META-INF", "container.xml"))


def book_files(folder: str, depth: int, budget: list[int]) -> list[str]:
    if depth > MAX_DEPTH or budget[0] <= 0:
        return []
    try:
        names = sorted(n for n in os.listdir(folder) if not n.startswith("."))
    except OSError:
        return []
    out: list[str] = []
    for name in names:
        if budget[0] <= 0:
            break
        budget[0] -= 1
        path = os.path.join(folder, name)
        if os.path.isdir(path) and is_unpacked_epub(path):
            out.append(path)
        elif os.path.isdir(path):
            out += book_files(path, depth + 1, budget)
        elif os.path.isfile(path) and name.rsplit(".", 1)[-1].lower() in BOOK_EXTENSIONS and "." in name:
            out.append(path)
    return out


def list_entries(path: str) -> list[str]:
    if os.path.getsize(path) > 16 << 20:
        raise SystemExit(f"quire_ray: {path}: a list over 16 MB")
    base = os.path.dirname(path)
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = [line.strip() for line in f.read().splitlines()]
    return [l if l.startswith("/") else os.path.join(base, l) for l in lines if l and not l.startswith("#")]


def collect(path: str, list_depth: int, budget: list[int], out: list[str]) -> None:
    if not os.path.exists(path):
        raise SystemExit(f"quire_ray: {path}: cannot open: no such file or folder")
    if os.path.isdir(path) and not is_unpacked_epub(path):
        out += book_files(path, 0, budget)
    elif path.lower().endswith(".list"):
        if list_depth > 0:
            raise SystemExit(f"quire_ray: {path}: a list inside a list is not followed")
        for entry in list_entries(path):
            collect(entry, list_depth + 1, budget, out)
    else:
        out.append(path)


def folder_name(path: str) -> str:
    """The folder name of a book: its stem with unsafe characters as "_" (Unicode letters,
    digits, "-", "_", "." kept; Swift's Alphabetic property approximated by the letter, letter
    number and combining mark categories), cut to 100, leading dots dropped."""
    stem = os.path.splitext(os.path.basename(path.rstrip("/")))[0]

    def ok(c: str) -> bool:
        cat = unicodedata.category(c)
        alphabetic = cat.startswith("L") or cat in ("Nl", "Mn", "Mc")
        return (alphabetic or cat.startswith("N") or c in "-_.") and ord(c) > 0x20

    name = "".join(c if ok(c) else "_" for c in stem[:MAX_NAME])
    name = name.lstrip(".")
    return name or "book"


def plan(inputs: list[str]) -> list[tuple[str, str]]:
    """(book path, folder name) per book, in batch order."""
    files: list[str] = []
    budget = [MAX_ENTRIES]
    for i in inputs:
        collect(i, 0, budget, files)
    seen: set[str] = set()
    taken: set[str] = set()
    books: list[tuple[str, str]] = []
    for f in files:
        key = os.path.normpath(os.path.abspath(f))
        if key in seen:
            continue
        seen.add(key)
        if len(books) >= MAX_BOOKS:
            raise SystemExit(f"quire_ray: more than {MAX_BOOKS} books")
        base = folder_name(f)
        name, k = base, 2
        while name.lower() in taken:
            name, k = f"{base}-{k}", k + 1
        taken.add(name.lower())
        books.append((os.path.abspath(f), name))
    return books


# --- writers ----------------------------------------------------------------------------


class Writer:
    """Where a book's folder and the summary go. A writer is pickled into every task."""

    def render_dir(self, name: str) -> str:
        """A local folder `quire render` writes the book's pages into."""
        raise NotImplementedError

    def commit(self, name: str, local: str) -> None:
        """Publishes a rendered folder (called after a successful render)."""
        raise NotImplementedError

    def read(self, name: str, file: str) -> bytes | None:
        """A file of a book's published folder, None when absent."""
        raise NotImplementedError

    def write(self, name: str, file: str, data: bytes) -> None:
        """Writes one file of a book's folder (name "" for the root), atomically."""
        raise NotImplementedError

    def cleanup(self, local: str) -> None:
        """Called with `render_dir`'s folder when the task is done with it."""


class LocalPathWriter(Writer):
    """A folder every worker sees at the same path: books are rendered in place."""

    def __init__(self, root: str):
        self.root = os.path.abspath(root)

    def render_dir(self, name: str) -> str:
        return os.path.join(self.root, name)

    def commit(self, name: str, local: str) -> None:
        pass

    def read(self, name: str, file: str) -> bytes | None:
        try:
            with open(os.path.join(self.root, name, file), "rb") as f:
                return f.read()
        except OSError:
            return None

    def write(self, name: str, file: str, data: bytes) -> None:
        folder = os.path.join(self.root, name)
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{file}.tmp-", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, os.path.join(folder, file))


class ObjectStoreWriter(Writer):
    """Object storage (S3, GCS, MinIO…): books are rendered into a worker's temporary folder
    and uploaded file by file, manifest.json last, so a reader that sees the manifest sees
    the pages. A subclass implements `put(key, data)` and `get(key)` (bytes or None); keys
    are "PREFIX/NAME/FILE". An S3 one with boto3:

        class S3Writer(ObjectStoreWriter):
            def __init__(self, uri):              # s3://bucket/prefix
                super().__init__(uri.split("/", 3)[3] if uri.count("/") > 2 else "")
                self.bucket = uri.split("/")[2]
            def put(self, key, data):
                import boto3
                boto3.client("s3").put_object(Bucket=self.bucket, Key=key, Body=data)
            def get(self, key):
                import boto3
                try:
                    return boto3.client("s3").get_object(Bucket=self.bucket, Key=key)["Body"].read()
                except Exception:
                    return None
    """

    def __init__(self, prefix: str):
        self.prefix = prefix.strip("/")

    def key(self, name: str, file: str) -> str:
        return "/".join(p for p in (self.prefix, name, file) if p)

    def put(self, key: str, data: bytes) -> None:
        raise NotImplementedError

    def get(self, key: str) -> bytes | None:
        raise NotImplementedError

    def render_dir(self, name: str) -> str:
        return tempfile.mkdtemp(prefix=f"quire-ray-{name}-")

    def commit(self, name: str, local: str) -> None:
        files = sorted(f for f in os.listdir(local) if not f.startswith("."))
        for f in sorted(files, key=lambda f: f == "manifest.json"):
            with open(os.path.join(local, f), "rb") as fh:
                self.put(self.key(name, f), fh.read())

    def read(self, name: str, file: str) -> bytes | None:
        return self.get(self.key(name, file))

    def write(self, name: str, file: str, data: bytes) -> None:
        self.put(self.key(name, file), data)

    def cleanup(self, local: str) -> None:
        shutil.rmtree(local, ignore_errors=True)


class FolderObjectStore(ObjectStoreWriter):
    """`folder://PATH`: an object store whose objects are files under PATH (keys as paths).
    What the tests use to run the object-storage path without a network."""

    def __init__(self, uri: str):
        super().__init__("")
        self.base = os.path.abspath(uri[len("folder://"):])

    def put(self, key: str, data: bytes) -> None:
        path = os.path.join(self.base, key)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".obj.tmp-", dir=os.path.dirname(path))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)

    def get(self, key: str) -> bytes | None:
        try:
            with open(os.path.join(self.base, key), "rb") as f:
                return f.read()
        except OSError:
            return None


def writer_for(out: str) -> Writer:
    if out.startswith("folder://"):
        return FolderObjectStore(out)
    if "://" in out:
        raise SystemExit(
            f"quire_ray: {out}: no writer for this scheme (subclass ObjectStoreWriter, see its docstring)"
        )
    return LocalPathWriter(out)


# --- one book ---------------------------------------------------------------------------


def sha1_of(path: str) -> str | None:
    """SHA-1 of a book file's bytes, hex (what `quire batch`'s stamp holds)."""
    h = hashlib.sha1()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        return None
    return h.hexdigest()


def manifest_summary(data: bytes | None) -> tuple[int, int] | None:
    """(pages, warnings counted with repeats) of a manifest, None when it does not parse."""
    if data is None:
        return None
    try:
        head = json.loads(data)
        pages = int(head["pageCount"])
    except (ValueError, KeyError, TypeError):
        return None
    warnings = sum(max(1, int(w.get("count", 1) or 1)) for w in head.get("warnings") or [])
    return pages, warnings


def stamp_bytes(digest: str, settings: str, engine: str) -> bytes:
    stamp = {"engine": engine, "format": "quire-batch-stamp/1", "input": digest, "settings": settings}
    return json.dumps(stamp, sort_keys=True, separators=(",", ":")).encode()


def stamp_matches(data: bytes | None, digest: str, settings: str, engine: str) -> bool:
    try:
        s = json.loads(data) if data else None
    except ValueError:
        return False
    return isinstance(s, dict) and s == json.loads(stamp_bytes(digest, settings, engine))


def convert_book(job: dict) -> dict:
    """Renders (or skips) one book; runs in a Ray task. Never raises for a bad book."""
    start = time.monotonic()
    book, name, writer = job["book"], job["name"], job["writer"]
    outcome = {"input": book, "output": name, "status": "failed", "exitCode": 0, "pages": None,
               "seconds": 0.0, "warnings": 0, "error": None}

    def done() -> dict:
        outcome["seconds"] = round(time.monotonic() - start, 3)
        return outcome

    digest = sha1_of(book) if os.path.isfile(book) else folder_digest(book)
    if digest is None:
        outcome.update(exitCode=66, error=f"{book}: cannot open: cannot read the file")
        return done()
    settings, engine = " ".join(job["options"]), job["engine"]
    manifest = manifest_summary(writer.read(name, "manifest.json"))
    if not job["force"] and manifest and stamp_matches(writer.read(name, STAMP_NAME), digest, settings, engine):
        outcome.update(status="skipped", pages=manifest[0], warnings=manifest[1])
        return done()
    kill_once(job)
    local = writer.render_dir(name)
    try:
        command = [job["quire"], "render", book, "-o", local] + job["options"] + ["--threads", str(job["threads"])]
        result = subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        outcome["exitCode"] = result.returncode if result.returncode >= 0 else 70
        if result.returncode != 0:
            lines = result.stderr[-4096:].decode("utf-8", "replace").splitlines()
            line = lines[-1] if lines else f"exit {result.returncode}"
            outcome["error"] = line[len("quire: "):] if line.startswith("quire: ") else line
            return done()
        with open(os.path.join(local, "manifest.json"), "rb") as f:
            written = manifest_summary(f.read())
        if written is None:
            outcome.update(exitCode=70, error=f"{name}: no manifest.json was written")
            return done()
        writer.commit(name, local)
        writer.write(name, STAMP_NAME, stamp_bytes(digest, settings, engine))
        outcome.update(status="converted", pages=written[0], warnings=written[1])
        return done()
    finally:
        writer.cleanup(local)


def folder_digest(path: str) -> str | None:
    """An unpacked EPUB folder's identity, as Quire computes it (LayoutCacheKey.contentHash):
    SHA-1 of the lines "RELATIVE-PATH SHA1" of every file, names sorted level by level,
    joined by newlines."""
    lines: list[str] = []

    def walk(folder: str, prefix: str, depth: int) -> bool:
        if depth > 32:
            return False
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return False
        for n in names:
            full = os.path.join(folder, n)
            if os.path.isdir(full) and not os.path.islink(full):
                if not walk(full, prefix + n + "/", depth + 1):
                    return False
            elif os.path.isfile(full) or os.path.islink(full):
                digest = sha1_of(full)
                if digest is None or len(lines) >= 100_000:
                    return False
                lines.append(f"{prefix}{n} {digest}")
        return True

    if not os.path.isdir(path) or not walk(path, "", 0):
        return None
    return hashlib.sha1("\n".join(lines).encode()).hexdigest()


def kill_once(job: dict) -> None:
    """Fault injection (QUIRE_RAY_KILL_ONCE=NAME): the first attempt at NAME kills its worker."""
    if os.environ.get("QUIRE_RAY_KILL_ONCE") != job["name"] or not job.get("marker_dir"):
        return
    marker = os.path.join(job["marker_dir"], f"killed-{job['name']}")
    os.makedirs(job["marker_dir"], exist_ok=True)
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    os._exit(1)


# --- the driver -------------------------------------------------------------------------


def quire_engine(quire: str) -> str:
    """The engine version the stamps and summary name (`quire --version`: "quire ENGINE")."""
    try:
        out = subprocess.run([quire, "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(f"quire_ray: {quire}: cannot run quire: {e}")
    return out.strip().split()[-1]


def run(args: argparse.Namespace, options: list[str]) -> dict:
    import ray

    writer = writer_for(args.output)
    books = plan(args.inputs)
    engine = quire_engine(args.quire)
    marker_dir = os.path.join(os.path.abspath(args.output), ".quire-ray") if isinstance(writer, LocalPathWriter) else None
    if ray.is_initialized():
        pass
    elif args.address:
        ray.init(address=args.address, log_to_driver=False)
    else:
        ray.init(num_cpus=args.local_workers, log_to_driver=False, include_dashboard=False)
    if __name__ != "__main__":
        # Imported (not run as a script): ship this module's code with the tasks, so the
        # workers need no copy of it.
        ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    task = ray.remote(num_cpus=args.cpus_per_book, max_retries=args.retries)(convert_book)
    start = time.monotonic()
    refs = []
    for book, name in books:
        job = {"book": book, "name": name, "writer": writer, "options": options, "engine": engine,
               "quire": args.quire, "threads": args.cpus_per_book, "force": args.force,
               "marker_dir": marker_dir}
        refs.append(task.remote(job))
    outcomes = []
    for (book, name), ref in zip(books, refs):
        try:
            outcomes.append(ray.get(ref))
        except Exception as e:  # the task's retries are spent (worker or node lost)
            outcomes.append({"input": book, "output": name, "status": "failed", "exitCode": 70,
                             "pages": None, "seconds": 0.0, "warnings": 0,
                             "error": f"{name}: lost after {args.retries} retries: {type(e).__name__}"})
    jobs = int(ray.cluster_resources().get("CPU", 1) // args.cpus_per_book) or 1
    report = {"format": "quire-batch/1", "engine": engine, "settings": " ".join(options),
              "jobs": jobs, "seconds": round(time.monotonic() - start, 3), "books": outcomes}
    writer.write("", SUMMARY_NAME, json.dumps(report, indent=2, sort_keys=True).encode())
    return report


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="quire_ray", description="quire render per book on a Ray cluster")
    p.add_argument("inputs", nargs="+", help="books, folders of books, .list files")
    p.add_argument("-o", "--output", required=True, help="a shared folder or folder://PATH")
    p.add_argument("--address", help="a running cluster (auto, ray://HOST:10001); default: start a local one")
    p.add_argument("--local-workers", type=int, default=os.cpu_count() or 1,
                   help="CPUs of the local cluster when no --address is given")
    p.add_argument("--cpus-per-book", type=int, default=1, help="CPUs (and quire threads) per book")
    p.add_argument("--retries", type=int, default=3, help="retries of a task whose worker is lost")
    p.add_argument("--quire", default=shutil.which("quire") or "quire", help="the quire executable on the workers")
    p.add_argument("--force", action="store_true", help="render books whose stamp matches too")
    return p


def main(argv: list[str]) -> int:
    options: list[str] = []
    if "--" in argv:
        i = argv.index("--")
        argv, options = argv[:i], argv[i + 1:]
    p = parser()
    args = p.parse_args(argv)
    if args.local_workers < 1 or args.cpus_per_book < 1 or args.retries < 0:
        p.error("--local-workers and --cpus-per-book must be at least 1, --retries at least 0")
    for o in ("-o", "--output", "--threads", "--pages"):
        if o in options:
            p.error(f"{o} is set by the driver, not a render option here")
    report = run(args, options)
    failed = [b for b in report["books"] if b["status"] == "failed"]
    for b in failed:
        print(f"quire_ray: {b['error'] or b['input']}", file=sys.stderr)
    counts = {s: sum(1 for b in report["books"] if b["status"] == s) for s in ("converted", "skipped", "failed")}
    print(f"{counts['converted']} converted, {counts['skipped']} skipped, {counts['failed']} failed "
          f"in {report['seconds']} s", file=sys.stderr)
    return 65 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
