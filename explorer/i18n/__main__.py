"""`python -m explorer.i18n --sort`: rewrite both catalogs sorted, one key per line."""

import argparse

from explorer.i18n import LANGUAGES, _load, write_catalog

if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m explorer.i18n", description=__doc__)
    parser.add_argument("--sort", action="store_true", required=True,
                        help="rewrite explorer/i18n/ko.json and en.json sorted by key, one key per line")
    parser.parse_args()
    for lang in LANGUAGES:
        write_catalog(lang, _load(lang))
