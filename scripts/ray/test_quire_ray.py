#!/usr/bin/env python3
"""The Ray driver on a local two-node Ray cluster (one CPU each), started here.

    python3 scripts/ray/test_quire_ray.py --quire .build/debug/quire --corpus ../shared/corpus

Converts corpus books plus a damaged one, with one book's first worker killed (the retry
path), and checks: every good book converted with a manifest whose pages are all on disk and
numbered 1…N, the damaged book failed (exit 65) without stopping the others, the summary is
quire-batch/1 with one entry per book, a second run skips every converted book, and the
object-storage writer publishes a book's files. Exits 0 when all hold; prints what failed.
Run by Tests/QuireTests/RayDriverTests.swift.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

BOOKS = [
    "regime-anticancer-arabic.epub",
    "wasteland-otf-obf.epub",
    "wasteland-woff-obf.epub",
    "trees.epub",
    "svg-in-spine.epub",
]
KILLED = "wasteland-otf-obf"


def check(condition: bool, message: str) -> None:
    if not condition:
        raise AssertionError(message)


def check_book(out: str, outcome: dict) -> None:
    name = outcome["output"]
    check(outcome["status"] == "converted" and outcome["exitCode"] == 0, f"{name}: {outcome}")
    with open(os.path.join(out, name, "manifest.json"), "rb") as f:
        manifest = json.load(f)
    check(manifest["format"] == "quire-pages/2", f"{name}: manifest format {manifest['format']}")
    pages = manifest["pages"]
    check(manifest["pageCount"] == len(pages) == outcome["pages"] > 0, f"{name}: page counts")
    check([p["number"] for p in pages] == list(range(1, len(pages) + 1)), f"{name}: numbering")
    for p in pages:
        check(os.path.isfile(os.path.join(out, name, p["file"])), f"{name}: {p['file']} missing")
    check(os.path.isfile(os.path.join(out, name, "batch-stamp.json")), f"{name}: no stamp")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--quire", required=True)
    p.add_argument("--corpus", required=True)
    args = p.parse_args()
    args.corpus = os.path.abspath(args.corpus)
    work = tempfile.mkdtemp(prefix="quire-ray-test-")
    out = os.path.join(work, "out")
    broken = os.path.join(work, "broken.epub")
    with open(broken, "wb") as f:
        f.write(b"PK\x03\x04 this is no zip archive" * 10)
    listing = os.path.join(work, "books.list")
    with open(listing, "w") as f:
        f.write("\n".join([os.path.join(args.corpus, b) for b in BOOKS] + [broken]) + "\n")
    # Worker processes inherit the environment of the cluster's processes.
    os.environ["QUIRE_RAY_KILL_ONCE"] = KILLED
    os.environ["PYTHONPATH"] = HERE + os.pathsep + os.environ.get("PYTHONPATH", "")

    import ray
    from ray.cluster_utils import Cluster

    import quire_ray

    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    cluster.add_node(num_cpus=1)
    try:
        cluster.wait_for_nodes()

        def driver(inputs: list[str], output: str) -> dict:
            argv = inputs + ["-o", output, "--quire", args.quire, "--retries", "2",
                             "--address", cluster.address]
            parsed = quire_ray.parser().parse_args(argv)
            return quire_ray.run(parsed, ["--color", "gray"])

        report = driver([listing], out)
        with open(os.path.join(out, "summary.json")) as f:
            summary = json.load(f)
        check(summary == report, "summary.json is the report")
        check(summary["format"] == "quire-batch/1" and summary["jobs"] == 2, f"summary head {summary}")
        books = {b["output"]: b for b in summary["books"]}
        check(len(summary["books"]) == len(BOOKS) + 1, f"{len(summary['books'])} outcomes")
        for b in BOOKS:
            check_book(out, books[os.path.splitext(b)[0]])
        check(books["broken"]["status"] == "failed" and books["broken"]["exitCode"] == 65,
              f"broken: {books['broken']}")
        check(bool(books["broken"]["error"]), "broken: no error line")
        check(os.path.exists(os.path.join(out, ".quire-ray", f"killed-{KILLED}")),
              "the killed book's first worker did not die")

        again = driver([listing], out)
        statuses = sorted(b["status"] for b in again["books"])
        check(statuses == ["failed"] + ["skipped"] * len(BOOKS), f"resume: {statuses}")

        objects = os.path.join(work, "objects")
        stored = driver([os.path.join(args.corpus, "regime-anticancer-arabic.epub")], f"folder://{objects}")
        book = stored["books"][0]
        check(book["status"] == "converted", f"object store: {book}")
        files = sorted(os.listdir(os.path.join(objects, book["output"])))
        check("manifest.json" in files and "batch-stamp.json" in files
              and sum(f.startswith("page-") for f in files) == book["pages"], f"objects: {files}")
        check(os.path.isfile(os.path.join(objects, "summary.json")), "object store: no summary")
    finally:
        ray.shutdown()
        cluster.shutdown()
    print(json.dumps({"books": len(BOOKS) + 1, "seconds": report["seconds"]}))
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except AssertionError as e:
        print(f"test_quire_ray: {e}", file=sys.stderr)
        sys.exit(1)
