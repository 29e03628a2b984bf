"""Shared fixtures: a tiny model directory built with the real tooling (tokenizers + safetensors)."""

from __future__ import annotations

import os
import tempfile

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # before anything imports transformers

# The suite never reads the user's models: no lab models (lab_models/ or TRANSFORMER_EXPLORER_LAB_MODELS) and
# the repository's bundled models/ (not a TRANSFORMER_EXPLORER_MODELS pointing elsewhere). Set at import, so
# module fixtures, AppTests and the servers the browser tests start (they inherit os.environ) see it too;
# a test that wants its own folder sets the variable itself (monkeypatch), which wins.
os.environ.pop("TRANSFORMER_EXPLORER_MODELS", None)
os.environ["TRANSFORMER_EXPLORER_LAB_MODELS"] = os.path.join(tempfile.mkdtemp(prefix="te-tests-"), "lab_models")
# Nor a training grammar chosen for one run (a shell that just trained on learner2): the suite tests the default.
os.environ.pop("TRANSFORMER_EXPLORER_TRAINING_GRAMMAR", None)

from pathlib import Path

import pytest
import torch

import transformer_core
from tests import module_seconds
from transformer_core import Transformer, TransformerConfig
from transformer_core.io.loading import save_model_dir

# One intra-op thread, as the app runs: on a shared 2-core machine two threads per forward pass
# were measured up to 100x slower (0.02 s -> 2.3 s a trace) when another process held a core.
torch.set_num_threads(int(os.environ.get("TRANSFORMER_EXPLORER_TORCH_THREADS", "1")))

ISOLATED_LAB_MODELS = os.environ["TRANSFORMER_EXPLORER_LAB_MODELS"]  # empty (tests that save lab models set their own)
TINY_WORDS = ["고양이가", "생선을", "먹는다", "the", "cat", "eats", "fish", ".", "?"]


def build_word_tokenizer(words: list[str]):
    """A word-level tokenizer built with the `tokenizers` library, wrapped for transformers."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    specials = ["<pad>", "<s>", "</s>", "<unk>"]
    vocab = {token: i for i, token in enumerate(specials + words)}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tokenizer.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.WhitespaceSplit(),
                                                       pre_tokenizers.Punctuation()])
    tokenizer.post_processor = processors.TemplateProcessing(single="$A </s>", special_tokens=[("</s>", 2)])
    tokenizer.decoder = decoders.WordPiece(prefix="##")  # joins words with spaces
    return PreTrainedTokenizerFast(tokenizer_object=tokenizer, pad_token="<pad>", bos_token="<s>",
                                   eos_token="</s>", unk_token="<unk>")


def tiny_config(**overrides) -> TransformerConfig:
    values = dict(src_vocab_size=len(TINY_WORDS) + 4, tgt_vocab_size=len(TINY_WORDS) + 4, d_model=16, n_heads=2,
                  n_encoder_layers=2, n_decoder_layers=2, d_ff=32, dropout=0.0, max_len=32,
                  share_embeddings=False)
    values.update(overrides)
    return TransformerConfig(**values)


@pytest.fixture(autouse=True)
def isolated_model_folders(monkeypatch):
    """Each test starts from the isolated folders above, whatever an earlier test or the user's shell set."""
    monkeypatch.delenv("TRANSFORMER_EXPLORER_MODELS", raising=False)
    monkeypatch.setenv("TRANSFORMER_EXPLORER_LAB_MODELS", ISOLATED_LAB_MODELS)


@pytest.fixture(scope="session")
def tiny_model_dir(tmp_path_factory) -> Path:
    """models/tiny: a random 2+2-layer model with a word-level tokenizer, saved HF-style."""
    torch.manual_seed(0)
    directory = tmp_path_factory.mktemp("models") / "tiny"
    save_model_dir(directory, Transformer(tiny_config()), build_word_tokenizer(TINY_WORDS), description="test model")
    return directory


@pytest.fixture()
def tiny_loaded(tiny_model_dir):
    return transformer_core.load(tiny_model_dir)


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium per browser-test module (Debian's /usr/bin/chromium, see browser_helpers.launch)."""
    from playwright import sync_api

    from tests.browser_helpers import launch

    with sync_api.sync_playwright() as playwright:
        instance = launch(playwright)
        yield instance
        instance.close()


@pytest.fixture(scope="module")
def reused_tabs(browser):
    """tab(width, height, locale="ko-KR", **options) -> the module's one tab for those settings, at that size.
    A tab that has drawn the app draws the next page for about half the Chromium CPU of a fresh one (2026-12-07,
    the encoder page: 2.4 to 2.9 s against 4.5 to 5.3 s in a new context or a new tab): the suite's browser time
    is mostly that CPU. Each test opens its own URL (a new Streamlit session); the tab's size is set again on
    every hand-out and the browser storage its last page kept is cleared (Streamlit keeps an opened sidebar)."""
    tabs: dict[tuple, object] = {}  # one page per setting, each in its own context (page.context)

    def tab(width: int, height: int, locale: str = "ko-KR", **options):
        """`options`: more of new_context's settings (a phone's user_agent, is_mobile, has_touch), a tab each."""
        key = (locale, *sorted(options.items()))
        if key not in tabs:
            tabs[key] = browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                                            device_scale_factor=1, **options).new_page()
        page = tabs[key]
        if page.url.startswith("http"):  # what the last test's page kept in the browser (an opened sidebar)
            page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        page.set_viewport_size({"width": width, "height": height})
        return page

    yield tab
    for page in tabs.values():
        page.context.close()


@pytest.fixture(scope="session")
def app_server():
    """`streamlit run app.py` (the in-process store) for the browser modules that need no settings of their own: one
    per test process (each xdist worker has its own), started by the first module that asks. A server per module
    paid Python's imports and the bundled models' loading again in each of 13 modules (about 4 s of server CPU
    on a first page, 2026-12-02). Streamlit keeps each tab's state in its own session, so the modules share only
    the caches of the pages, which are bounded."""
    from tests.browser_helpers import streamlit_server

    with streamlit_server(env={"TRANSFORMER_EXPLORER_REDIS_URL": ""}, timeout=90) as base:
        yield base


@pytest.fixture(scope="module")
def one_torch_thread():
    """One torch intra-op thread for a module's AppTests and reference traces, as app.py sets for its process
    (on a busy 2-core machine two threads made paper-base's decoding 20x slower); the count is put back after."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="session")
def redis_server_url():
    """A real redis-server on a free loopback port for the whole session (tests flush what they use)."""
    from tests.servers import running_redis

    with running_redis() as (url, _process):
        yield url


@pytest.fixture(params=["memory", "redis"])
def shared_store(request):
    """Each test that takes it runs twice: against the in-process store and against a real Redis."""
    from transformer_core.store import MemoryStore

    if request.param == "memory":
        yield MemoryStore()
        return
    from transformer_core.store.redis_store import RedisStore

    store = RedisStore(request.getfixturevalue("redis_server_url"))
    store.client.flushdb()
    yield store
    store.client.flushdb()


# --- the two tiers: `make test-fast` runs `-m "not browser and not slow"` ------------------------------------------
# A test that starts a server process (redis-server, a Streamlit server, nginx, a lab worker) is slow whatever its
# own marks say: the edit loop runs none of them. Read off the module's imports and the test's fixtures, so a new
# server test lands in the right tier without anyone remembering a mark.
SERVER_HINTS = ("tests.servers", "browser_helpers", "streamlit_server(", "running_redis(")
SERVER_FIXTURES = {"redis_server_url", "browser", "app_server"}
_module_starts_servers: dict[str, bool] = {}


def starts_servers(item: pytest.Item) -> bool:
    path = str(item.path)
    if path not in _module_starts_servers:
        source = Path(path).read_text(encoding="utf-8")
        _module_starts_servers[path] = any(hint in source for hint in SERVER_HINTS)
    if _module_starts_servers[path] or SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)  # shared_store's Redis half
    return callspec is not None and callspec.params.get("shared_store") == "redis"


def pytest_collection_modifyitems(config, items):
    for item in items:
        if starts_servers(item) and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
    # The longest modules first (tests/module_seconds.py): xdist's workers take whole modules in this order. A stable
    # sort on the module's weight keeps each module's tests together and in their own order.
    table = module_seconds.load_table()
    items.sort(key=lambda item: module_seconds.longest_first_key(item.path.name, table))
