"""The third teacher's read (issue 50), kept fixed: English counts agree with 1, Korean particles after «quoted»
values are resolved, Korean sentences write English terms only as a gloss of their first use (or as names,
symbols and the glossary's own Latin terms, listed here), and every word the lesson's equations use is in
the glossary."""

from __future__ import annotations

import re
import string
from functools import cache

import pytest

from explorer.glossary import TERMS
from explorer.i18n import CATALOGS, forms, placeholders, t
from explorer.i18n.particles import PAIRS
from explorer.mathtext import MATH_SPAN

# ------------------------------------------------------------------------------------------------
# English plural forms

# placeholders that hold a count which a model or a sentence can make 1: the lab's tiny preset has one layer
# of each stack, a checkpoint may have one head, a sentence one unknown word. Not here: `total` ("1 of 5 words
# is unknown" reads right; the totals are sentences and words that are many),
# `steps` / `planned` (the lab's shortest schedule is 500 steps; integrated gradients take 8 to 128) and
# `n_cut` / `n_total` (a text is cut only above the position table's length).
COUNTS = ("n", "h", "s", "layers", "n_layers", "n_heads")
ONE_THEN_PLURAL = re.compile(r"\b1 (?:[a-z][a-z\-]* )?(?:layers|heads|tokens|sentences|steps|positions|examples|"
                             r"words|runs|methods|charts|reads|parameters|dimensions|decoder layers|encoder layers)\b")


def _fill(entry_text: str, lang: str, key: str, count: int) -> str:
    values = {name: (count if name in COUNTS else "x") for name in placeholders(entry_text)}
    text = t(key, lang, **values) if values else t(key, lang)
    return text


def test_english_counts_of_one_are_singular():
    """'This model stacks 1 decoder layers' (the lab's tiny preset) must read '1 decoder layer'."""
    wrong = []
    for key, entry in CATALOGS["en"].items():
        names = placeholders(entry)
        if not names & set(COUNTS):
            continue
        try:
            shown = _fill(forms(entry)[0], "en", key, 1)
        except (ValueError, KeyError, IndexError):  # a format spec that needs a number: fill it with 1.0
            values = {name: (1 if name in COUNTS else 2) for name in names}
            shown = t(key, "en", **values)
        found = ONE_THEN_PLURAL.findall(shown)
        if found:
            wrong.append(f"{key}: {found}")
    assert not wrong, "\n".join(wrong)


def test_the_tiny_presets_layer_count_reads_right():
    """Written out: the decoder-layer sentence with n = 1 and n = 2."""
    one, two = t("lesson.decoder_layer.body", "en", n=1), t("lesson.decoder_layer.body", "en", n=2)
    assert "1 decoder layer" in one and "1 decoder layers" not in one
    assert "2 decoder layers" in two


# ------------------------------------------------------------------------------------------------
# Korean particles around «»

PAIR_RE = "|".join(map(re.escape, PAIRS))


@pytest.mark.parametrize(("value", "expected"), [("«있었어요»", "«있었어요»는"), ("«먹었다»", "«먹었다»는"),
                                                 ("«공원에서»", "«공원에서»는"), ("«밥»", "«밥»은")])
def test_a_particle_after_a_guillemet_quoted_value_is_resolved(value: str, expected: str):
    shown = t("vocab.outside_notice", "ko", words=value)
    assert shown.startswith(expected), shown
    assert not re.search(PAIR_RE, shown), shown


def test_no_korean_string_leaves_a_two_form_particle_after_a_quoted_value():
    """Every Korean entry, filled with Hangul words in «» (and numbers for counts), shows no '은(는)' left over."""
    left = []
    for key, entry in CATALOGS["ko"].items():
        for text in forms(entry):
            names = {name for _, name, spec, _ in string.Formatter().parse(text) if name}
            if not names:
                continue
            specs = {name: spec for _, name, spec, _ in string.Formatter().parse(text) if name}
            values = {name: (2 if specs.get(name) else "«사과»") for name in names}
            try:
                shown = t(key, "ko", **values)
            except (ValueError, KeyError, IndexError):
                continue
            for match in re.finditer(r"»['’\"]?(" + PAIR_RE + ")", shown):
                left.append(f"{key}: …{shown[max(0, match.start() - 12):match.end()]}")
    assert not left, "\n".join(left)


# ------------------------------------------------------------------------------------------------
# Latin words inside Korean sentences

# Names, symbols, acronyms, file formats and the glossary's Latin terms: these may stand in a Korean sentence.
ALLOWED_LATIN = {
    # the glossary's own terms (Korean column) and their parts
    "LayerNorm", "softmax", "pre-LN", "post-LN", "top-k", "top-p", "WordPiece", "PCA", "Jensen", "Shannon", "KV",
    "FFN", "RNN", "GRU", "MHA", "MaskedMHA", "CrossAttn", "LN", "BLEU", "BPE", "Adam", "Adadelta", "logits",
    # model and architecture names, people, places, data sets
    "BERT", "Marian", "GNMT", "WSJ", "Bahdanau", "Abnar", "Zuidema", "Wu", "WMT", "PyTorch", "Python",
    "reverse", "paper-base", "ko-en-rnn-attention", "ko-en-toy", "ko-en",
    "Attention", "Is", "All", "You", "Need",  # the paper's title
    "CLS", "SEP", "UNK", "BOS", "PE", "QK", "ReLU", "GELU", "SiLU", "swish", "tanh", "sin", "cos", "log", "exp",
    "argmax", "max", "min", "lp", "ls", "drop", "pos", "ff", "Add", "Norm", "Concat", "True", "False",
    "GPU", "CPU", "CUDA", "cuda", "HTML", "CSV", "NPY", "PNG", "JS", "QR", "UTF", "txt", "ms", "id", "ids",
    "transformers", "base", "big", "Enter", "cpu", "mps", "Redis", "RQ", "DKL", "KL", "O", "rnn", "attn",
}


def latin_outside_glosses(text: str) -> list[str]:
    """Latin words of a Korean string outside math, code, placeholders, tags, URLs and glosses '한글(English)'."""
    text = MATH_SPAN.sub(" ", text)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\{[^{}]*\}", " ", text)
    text = re.sub(r"<[^>]*>", " ", text)
    text = re.sub(r"https?://\S+", " ", text)
    text = re.sub(r"\b\w*_\w*", " ", text)  # d_model, ε_ls, P_drop: symbols
    text = re.sub(r"\b\w+(?:\.\w+)+", " ", text)  # trace names and files: rnn.attn.weights, generation.py
    text = re.sub(r"\S*/\S*", " ", text)  # paths and ratios: models/, 1/√step
    text = re.sub(r"(?<=[\uac00-\ud7a3])\s?\([A-Za-z][^()\uac00-\ud7a3]*\)", " ", text)  # 교사 강요(teacher forcing)
    text = re.sub(r"(?<=[\uac00-\ud7a3]), [A-Za-z][^()\uac00-\ud7a3]*\)", " ", text)  # (교사 강요, teacher forcing)
    text = re.sub(r"\(영어로 [A-Za-z][^()\uac00-\ud7a3]*\)", " ", text)  # softmax(영어로 sampled softmax)
    text = re.sub(r"'[A-Za-z][^'\uac00-\ud7a3]*'", " ", text)  # a quoted English example: 'I go to school by bus'

    return [w for w in re.findall(r"[A-Za-z](?:[A-Za-z\-]*[A-Za-z])?", text) if len(w) > 1 and w not in ALLOWED_LATIN]


def test_korean_sentences_write_english_terms_only_as_glosses():
    found = [(key, word) for key, entry in CATALOGS["ko"].items() for text in forms(entry)
             for word in latin_outside_glosses(text)]
    assert not found, "\n".join(f"{key}: {word}" for key, word in found)


def test_the_glossed_korean_words_replace_teacher_forcing_and_memory():
    """The two the issue names: Korean says 교사 강요 and 인코더 출력 (glossed once), the glossary agrees."""
    ko = [text for entry in CATALOGS["ko"].values() for text in forms(entry)]
    bare = [text for text in ko if re.search(r"teacher forcing(?!\))", text) or re.search(r"(?<!\()memory(?!\))", text)]
    assert not bare, bare[:3]
    words = {term.ko for term in TERMS}
    assert "교사 강요" in words and "teacher forcing" not in words


# ------------------------------------------------------------------------------------------------
# The glossary covers the lesson's equations

@cache
def lesson_latex_words() -> dict[str, set[str]]:
    """word -> the step ids whose equation writes it (\\text{}, \\mathrm{}, \\operatorname{}), over both bundled
    model kinds (post-LN ko-en-toy, pre-LN reverse), in English."""
    import transformer_core as core
    from explorer import lesson_service
    from explorer.figures import lesson

    available = {info.name for info in core.list_models() if info.available}
    words: dict[str, set[str]] = {}
    for name, text in (("ko-en-toy", "고양이가 공원에서 생선을 먹었다."), ("reverse", "abc")):
        if name not in available:
            pytest.skip(f"{name} is not available")
        model = core.load(name)
        data = lesson_service.lesson_data(core.trace_text(model, text), model, text)
        for step in lesson.lesson_steps():
            latex = lesson.build_step(step, data, "en").latex
            for inner in re.findall(r"\\(?:text|mathrm|operatorname)\{([^{}]*)\}", latex):
                for word in re.findall(r"[A-Za-z][A-Za-z\-]*", inner):
                    words.setdefault(word, set()).add(step.id)
    return words


# notation the glossary need not define: ids, counts and the equations' own variable names
NOTATION = {"id", "ids", "step", "Var", "std", "text", "peak", "here", "paper", "vs", "no", "learned", "trace",
            "allowed", "blocked", "hidden", "units", "independent", "unit-variance", "components", "beam",
            "warmup", "lrate"}  # the paper's own names in section 5.3's formula: lrate, step_num, warmup_steps


def glossary_words() -> set[str]:
    """Every Latin word of the glossary's terms, abbreviations in parentheses included ('multi-head attention
    (MHA)' gives MHA)."""
    found = set()
    for term in TERMS:
        for text in (term.en, term.ko):
            found |= {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z\-]*", text)}
            found.add(text.lower())
        # an abbreviation the definition declares: 'Abbreviations in the equations: MHA, Concat.'
        for listed in re.findall(r"Abbreviations? in the equations: ([A-Za-z, ]+)", term.en_def):
            found |= {w.strip().lower() for w in listed.split(",")}
    return found


@pytest.mark.usefixtures("one_torch_thread")
def test_every_term_the_lesson_equations_use_is_in_the_glossary():
    known = glossary_words()
    words = lesson_latex_words()
    assert {"MHA", "LN", "FFN", "softmax", "LayerNorm"} <= set(words)  # the scan really reads the equations
    missing = sorted(f"{word} ({', '.join(sorted(steps))})" for word, steps in words.items()
                     if word not in NOTATION and word.lower() not in known)
    assert not missing, missing


def test_the_glossary_spells_out_the_equations_abbreviations_and_the_papers_jargon():
    """The second list of the issue's omissions: each of these has an entry (English word or abbreviation)."""
    known = glossary_words()
    for word in ("MHA", "LN", "MaskedMHA", "softmax", "BLEU", "perplexity", "RNN", "GRU", "Adam", "learning rate",
                 "loss", "gradient", "big-O", "BPE", "WMT"):
        assert word.lower() in known, word


def test_the_classifiers_level_names_are_the_glossarys():
    """The lab's speech-level names (saved into every classifier's config) are school grammar's, as the glossary
    writes them: 하십시오체 (not 합쇼체), 해체 (반말 is an everyday word, not the level's name)."""
    from transformer_core.training.classify import LEVEL_NAMES

    speech_level = next(term for term in TERMS if term.en == "speech level")
    assert set(LEVEL_NAMES.values()) == {"하십시오체", "해요체", "해체", "해라체"}
    assert all(name in speech_level.ko_def for name in LEVEL_NAMES.values())
