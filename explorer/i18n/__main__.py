"""`python -m explorer.i18n --sort`: rewrite both catalogs sorted, one key per line."""

import sys

from explorer.i18n import LANGUAGES, _load, write_catalog

if __name__ == "__main__":
    if sys.argv[1:] != ["--sort"]:
        sys.exit("usage: python -m explorer.i18n --sort")
    for lang in LANGUAGES:
        write_catalog(lang, _load(lang))
