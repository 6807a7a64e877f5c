"""Exits 0 when every pinned package of a requirements file is installed at its version."""
import sys
from importlib import metadata

def main(path: str) -> int:
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, _, version = line.partition("==")
        try:
            if metadata.version(name) != version:
                return 1
        except metadata.PackageNotFoundError:
            return 1
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
